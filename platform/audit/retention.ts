import "server-only";
import { env } from "@/platform/env";
import { log } from "@/platform/ops/log";
import { schedulePeriodic } from "@/platform/ops/periodic";
import { pruneAuditLog } from "./commands";

/** How often the production server removes the audit log's entries past their retention. */
export const PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * The audit log, which is also the sign-in log, keeps an entry SIGNIN_LOG_RETENTION_DAYS (three years by
 * default) and no longer. Safe with several app instances: a second delete of the same rows removes none.
 */
export async function pruneExpiredAuditEntries(days = env().SIGNIN_LOG_RETENTION_DAYS): Promise<number> {
  const removed = await pruneAuditLog(days);
  if (removed) log().info({ event: "audit.prune", removed, days }, "audit: entries past their retention removed");
  return removed;
}

/** Prunes every PRUNE_EVERY_MS from now on, until shutdown. */
export function scheduleAuditPrunes(): void {
  schedulePeriodic("audit.prune", PRUNE_EVERY_MS, pruneExpiredAuditEntries);
}
