import { env } from "@/platform/env";

/**
 * Where the app's database is and how long to wait for it (DATABASE_URL, DB_CONNECT_TIMEOUT_MS,
 * DB_STATEMENT_TIMEOUT_MS): settings, not a connection. The pools (platform/db/pools.ts) connect with them, and
 * so does a child process that opens its own (the sign-in sheets' renderer).
 */
export interface PoolTimeouts {
  /** how long to wait for a connection (a database that does not answer fails the request instead of hanging it) */
  connectMs: number;
  /** the longest statement: PostgreSQL cancels it (statement_timeout), and the client gives up a little later (query_timeout) */
  statementMs: number;
}

/** The app's database: its address and its pools' timeouts (.env.example). */
export function appDatabase(): PoolTimeouts & { url: string } {
  const { DATABASE_URL, DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS } = env();
  return { url: DATABASE_URL, connectMs: DB_CONNECT_TIMEOUT_MS, statementMs: DB_STATEMENT_TIMEOUT_MS };
}
