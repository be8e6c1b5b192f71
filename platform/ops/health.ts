import "server-only";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { checkListener } from "@/platform/notify/listen";
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
  /** the live bus's listening connection (platform/notify/listen.ts): lost and being opened again, or not */
  live: "ok" | "reconnecting";
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

/**
 * Ready when the database answers, every shipped migration is applied to it, and the live bus listens (or has
 * not been needed yet): while its connection is being opened again, live screens on this instance would miss
 * the teacher's moves.
 */
export async function readiness(): Promise<Readiness> {
  const [listening, applied] = await Promise.all([checkListener(), appliedMigrationNames().catch(() => null)]);
  const live = listening ? "ok" : "reconnecting";
  if (!applied) return { ready: false, database: "unreachable", migrations: "unknown", live };
  const shipped = await shippedMigrations().catch(() => null);
  if (!shipped) return { ready: false, database: "ok", migrations: "unknown", live };
  const current = shipped.every((name) => applied.has(name));
  return { ready: current && live === "ok", database: "ok", migrations: current ? "current" : "pending", live };
}
