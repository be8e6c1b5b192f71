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

/** Appends to the audit log. A failure to log is reported but never breaks the request. */
export async function audit(entry: AuditEntry, tx: Prisma.TransactionClient = db()): Promise<void> {
  try {
    await tx.auditLog.create({ data: entry, select: { id: true } });
  } catch (error) {
    console.error("audit log write failed", entry.action, error);
  }
}
