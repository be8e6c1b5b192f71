import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { errorField, log } from "@/platform/ops/log";
import { type AuditEntry, insertAuditEntry } from "./commands";
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
