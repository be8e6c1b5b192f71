import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { errorField, log } from "@/platform/ops/log";
import { type AuditEntry, insertAuditEntries, insertAuditEntry } from "./commands";
import { logAudit } from "./log-line";

export { logAudit } from "./log-line";

/**
 * Appends to the audit log (and writes it to the server log). Outside a transaction a failure to log is
 * reported but never breaks the request. Inside one (`tx`) the entry is part
 * of the write: a failure fails the transaction, since PostgreSQL aborts it
 * anyway and swallowing the error would report a write that was rolled back.
 */
export async function audit(entry: AuditEntry, tx?: Prisma.TransactionClient): Promise<void> {
  if (tx) {
    await insertAuditEntry(entry, tx);
    logAudit(entry);
    return;
  }
  try {
    await insertAuditEntry(entry);
    logAudit(entry);
  } catch (error) {
    log().error({ event: "audit.failed", action: entry.action, ...errorField(error) }, "audit log write failed");
  }
}

/** Appends several entries at once (one statement), as `audit` does one outside a transaction. */
export async function auditAll(entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  try {
    await insertAuditEntries(entries);
    for (const entry of entries) logAudit(entry);
  } catch (error) {
    log().error({ event: "audit.failed", action: entries[0]!.action, ...errorField(error) }, "audit log write failed");
  }
}
