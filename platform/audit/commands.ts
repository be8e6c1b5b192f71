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
  /** Never passwords or codes. */
  meta?: Prisma.InputJsonValue;
}

/** Writes one entry of the audit log (inside `tx` when given). */
export async function insertAuditEntry(entry: AuditEntry, tx?: Prisma.TransactionClient): Promise<void> {
  await (tx ?? db()).auditLog.create({ data: entry, select: { id: true } });
}
