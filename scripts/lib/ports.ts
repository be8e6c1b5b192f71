/**
 * Default ports of the embedded PostgreSQL clusters, each set by its own
 * variable. All below 32768: Linux hands 32768–60999 to outgoing connections,
 * so a port there can be taken by any client of the moment.
 */
export const PG_PORTS = {
  /** `npm start` / `npm run dev` (EMBEDDED_PG_PORT). */
  dev: 25432,
  /**
   * Integration tests (TEST_PG_PORT); their PgBouncer (tests/support/pgbouncer.ts) uses it + 7,
   * their PostgreSQL 15 cluster (tests/support/postgres-15.ts) + 9, Lighthouse + 50.
   */
  integration: 25439,
  /** End-to-end tests (E2E_PG_PORT); their PgBouncer uses it + 3, their fault and outage clusters + 5 and + 7. */
  e2e: 25449,
  /** The bench (BENCH_PG_PORT); its PgBouncer (tools/bench/pooled.ts) uses it + 3. */
  bench: 25459,
} as const;
