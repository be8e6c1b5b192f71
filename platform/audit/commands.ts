import "server-only";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";
import type { AuditEntry } from "./log";

/** Writes one entry of the audit log (inside `tx` when given). */
export async function insertAuditEntry(entry: AuditEntry, tx?: Prisma.TransactionClient): Promise<void> {
  await (tx ?? db()).auditLog.create({ data: entry, select: { id: true } });
}
