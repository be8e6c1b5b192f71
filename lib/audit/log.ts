import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";

export interface AuditEntry {
  action: string;
  actorId?: string | null;
  targetType?: string;
  targetId?: string;
  schoolId?: string | null;
  academyId?: string | null;
  ip?: string | null;
  /** Never passwords or codes. */
  meta?: Prisma.InputJsonValue;
}

/**
 * Appends to the audit log. Outside a transaction a failure to log is
 * reported but never breaks the request. Inside one (`tx`) the entry is part
 * of the write: a failure fails the transaction, since PostgreSQL aborts it
 * anyway and swallowing the error would report a write that was rolled back.
 */
export async function audit(entry: AuditEntry, tx?: Prisma.TransactionClient): Promise<void> {
  if (tx) {
    await tx.auditLog.create({ data: entry, select: { id: true } });
    return;
  }
  try {
    await db().auditLog.create({ data: entry, select: { id: true } });
  } catch (error) {
    console.error("audit log write failed", entry.action, error);
  }
}
