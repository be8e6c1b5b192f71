import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { errorField, log } from "@/platform/ops/log";
import { type AuditEntry, insertAuditEntry } from "./commands";

/** Meta fields that may reach the server log (never the e-mail a sign-in failure keeps in the table). */
const LOGGED_META = ["reason", "from", "to", "pseudonymous", "rows"] as const;

/**
 * The audited event as a log line too (docs/architecture.md "Operations"):
 * sign-in failures, exports, mode changes, live sessions, admin actions — by
 * user id, never by name or e-mail. Inside a transaction the line is written
 * when the entry is, before the commit. A statement that writes its own entry in SQL
 * (features/play/server/session-commands.ts setSessionPaused) calls it once the entry is written.
 */
export function logAudit(entry: AuditEntry) {
  const meta =
    entry.meta && typeof entry.meta === "object" && !Array.isArray(entry.meta)
      ? (entry.meta as Record<string, unknown>)
      : {};
  const fields = Object.fromEntries(
    LOGGED_META.filter((key) => meta[key] !== undefined).map((key) => [key, meta[key]]),
  );
  const method = entry.action.startsWith("signin.") ? entry.action.split(".")[1] : undefined; // password, code, google, entra
  const line = {
    event: entry.action,
    method,
    userId: entry.actorId ?? undefined,
    schoolId: entry.schoolId ?? undefined,
    targetType: entry.targetType,
    targetId: entry.targetId,
    ...fields,
  };
  if (entry.action.endsWith(".throttled")) log().warn(line, "audit");
  else log().info(line, "audit");
}

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
