import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";

/** One entry of the audit log (platform/audit/log.ts `audit` writes it and logs it). */
export interface AuditEntry {
  action: string;
  actorId?: string | null;
  targetType?: string;
  targetId?: string;
  schoolId?: string | null;
  academyId?: string | null;
  ip?: string | null;
  /** The client's User-Agent header (sign-ins); cut to USER_AGENT_MAX characters when written. */
  userAgent?: string | null;
  /** Never passwords or codes. */
  meta?: Prisma.InputJsonValue;
}

/** The most characters of a User-Agent header an entry keeps (a client chooses its length). */
export const USER_AGENT_MAX = 512;

/** Writes one entry of the audit log (inside `tx` when given). */
const rowOf = (entry: AuditEntry) => ({
  ...entry,
  userAgent: entry.userAgent ? entry.userAgent.slice(0, USER_AGENT_MAX) : null,
});

export async function insertAuditEntry(entry: AuditEntry, tx?: Prisma.TransactionClient): Promise<void> {
  await (tx ?? db()).auditLog.create({ data: rowOf(entry), select: { id: true } });
}

/** Several entries in one statement (the pages of a PDF stored together). */
export async function insertAuditEntries(entries: AuditEntry[]): Promise<void> {
  await db().auditLog.createMany({ data: entries.map(rowOf) });
}

/**
 * Removes the entries older than `days` (SIGNIN_LOG_RETENTION_DAYS, platform/audit/retention.ts), in batches so that
 * no statement holds many rows at once; the number removed.
 */
export async function pruneAuditLog(days: number, batch = 5000): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await db().$executeRaw`delete from audit_logs where id in (
      select id from audit_logs where at < now() - make_interval(days => ${days}::int) limit ${batch}::int)`;
    removed += n;
    if (n < batch) return removed;
  }
}
