import "server-only";
import { db } from "@/platform/db";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { LIVE_CHANNEL } from "./channel";

/** Sends `payload` on the live channel (inside `tx` when given: delivered on commit). */
export async function notifyLive(payload: string, tx?: Prisma.TransactionClient): Promise<void> {
  await (tx ?? db()).$executeRaw`select pg_notify(${LIVE_CHANNEL}, ${payload})`;
}
