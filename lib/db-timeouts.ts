import type { PoolConfig } from "pg";

export interface PoolTimeouts {
  /** how long to wait for a connection (a database that does not answer fails the request instead of hanging it) */
  connectMs: number;
  /** the longest statement: PostgreSQL cancels it (statement_timeout), and the client gives up a little later (query_timeout) */
  statementMs: number;
}

/**
 * The timeouts every pool of the app sets (Prisma's here, the answer endpoint's in
 * lib/responses/endpoint.ts): during a database outage requests fail within seconds and
 * the pool reconnects by itself once it is back. A session idle in a transaction (a
 * client that vanished mid-transaction) is ended after 30 s so its locks go.
 */
export function poolTimeoutOptions(timeouts: PoolTimeouts, extraOptions = ""): PoolConfig {
  return {
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.statementMs + 5_000,
    options:
      `-c statement_timeout=${timeouts.statementMs} -c idle_in_transaction_session_timeout=30000 ${extraOptions}`.trim(),
  };
}
