import "server-only";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { appliedMigrationNames } from "./queries";

/**
 * Liveness and readiness for load balancers and container runtimes
 * (docs/architecture.md "Operations"). Neither needs a session, and neither body
 * carries anything but the state of each check: no versions, addresses or errors.
 */
export type Readiness = {
  ready: boolean;
  database: "ok" | "unreachable";
  migrations: "current" | "pending" | "unknown";
};

let shipped: Promise<string[]> | undefined;

/** The migrations this build ships (prisma/migrations/<name>/), read once per process. */
function shippedMigrations(): Promise<string[]> {
  shipped ??= readdir(path.join(process.cwd(), "prisma", "migrations"), { withFileTypes: true }).then(
    (entries) => entries.filter((e) => e.isDirectory()).map((e) => e.name),
    (error: unknown) => {
      shipped = undefined; // read again next time
      throw error;
    },
  );
  return shipped;
}

/** Ready when the database answers and every shipped migration is applied to it. */
export async function readiness(): Promise<Readiness> {
  let applied: Set<string>;
  try {
    applied = await appliedMigrationNames();
  } catch {
    return { ready: false, database: "unreachable", migrations: "unknown" };
  }
  const shipped = await shippedMigrations().catch(() => null);
  if (!shipped) return { ready: false, database: "ok", migrations: "unknown" };
  const current = shipped.every((name) => applied.has(name));
  return { ready: current, database: "ok", migrations: current ? "current" : "pending" };
}
