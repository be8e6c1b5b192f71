import { env } from "@/platform/env";

/**
 * Where the app's database is and how long to wait for it (DATABASE_URL, DATABASE_DIRECT_URL, DB_CONNECT_TIMEOUT_MS,
 * DB_STATEMENT_TIMEOUT_MS): settings, not a connection. The pools (platform/db/pools.ts) connect with them, and
 * so does a child process that opens its own (the sign-in sheets' renderer).
 */
export interface PoolTimeouts {
  /** how long to wait for a connection (a database that does not answer fails the request instead of hanging it) */
  connectMs: number;
  /** the longest statement: PostgreSQL cancels it (statement_timeout), and the client gives up a little later (query_timeout) */
  statementMs: number;
}

/** Where the app's database is (.env.example). */
export interface AppDatabase extends PoolTimeouts {
  /** the pools' (DATABASE_URL) */
  url: string;
  /** the session-bound work's: LISTEN, the migrations' lock, backup and restore (DATABASE_DIRECT_URL, else DATABASE_URL) */
  directUrl: string;
  /**
   * DATABASE_URL is a transaction pooler (DATABASE_DIRECT_URL is set): a pooled connection may serve each
   * transaction from another server session, so the pools keep nothing in the session — no named statement,
   * no setting at connection start (docs/scaling.md "What runs where").
   */
  pooled: boolean;
}

/** The app's database: its addresses and its pools' timeouts (.env.example). */
export function appDatabase(): AppDatabase {
  const { DATABASE_URL, DATABASE_DIRECT_URL, DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS } = env();
  return {
    url: DATABASE_URL,
    directUrl: DATABASE_DIRECT_URL ?? DATABASE_URL,
    pooled: DATABASE_DIRECT_URL !== undefined,
    connectMs: DB_CONNECT_TIMEOUT_MS,
    statementMs: DB_STATEMENT_TIMEOUT_MS,
  };
}
