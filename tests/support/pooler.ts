import { inject } from "vitest";

/**
 * The integration cluster behind PgBouncer in transaction mode (started by tests/support/global-setup.ts), as an
 * operator runs the app behind a transaction pooler: DATABASE_URL through it, DATABASE_DIRECT_URL straight to
 * the cluster (docs/scaling.md "What runs where").
 */
export function throughPooler(url: string): string {
  const port = inject("poolerPort");
  if (!port) throw new Error(inject("poolerProblem") ?? "PgBouncer did not start for the tests");
  const u = new URL(url);
  u.hostname = "127.0.0.1";
  u.port = String(port);
  return u.toString();
}
