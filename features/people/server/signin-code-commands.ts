import "server-only";
import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";
import { env } from "@/platform/env";
import { sealNewCode } from "../../../platform/auth/signin-code-crypto";

/**
 * A first sign-in code for each of these students (a print's students without a live one), in one
 * statement; returns the codes by student. The caller has checked that they are its school's
 * students (features/people/server/sheets-route.ts). `key` and `client`: the sheets renderer process's own
 * (features/people/server/sheets-cards.ts).
 */
export async function issueFirstCodes(
  userIds: string[],
  key: string = env().SIGNIN_CODE_KEY,
  client: PrismaClient = db(),
): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  if (userIds.length === 0) return codes;
  await client.signinCode.createMany({
    data: userIds.map((userId) => {
      const sealed = sealNewCode(key);
      codes.set(userId, sealed.code);
      return { userId, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted };
    }),
  });
  return codes;
}

/**
 * New cards for these students, in the caller's transaction: each live code revoked, the sessions it
 * opened ended, a new code made that keeps the old one's expiry date (e.g. the end of the school year).
 * The caller has checked that they are its school's students.
 */
export async function rotateSigninCodes(
  tx: Prisma.TransactionClient,
  userIds: string[],
  key: string = env().SIGNIN_CODE_KEY,
): Promise<void> {
  if (userIds.length === 0) return;
  const live = await tx.signinCode.findMany({
    where: { userId: { in: userIds }, revokedAt: null, expiresAt: { not: null } },
    select: { userId: true, expiresAt: true },
  });
  const expiry = new Map(live.map((c) => [c.userId, c.expiresAt]));
  await tx.signinCode.updateMany({
    where: { userId: { in: userIds }, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  await tx.user.updateMany({ where: { id: { in: userIds } }, data: { sessionVersion: { increment: 1 } } }); // sessions of the old card end
  await tx.signinCode.createMany({
    data: userIds.map((userId) => {
      const sealed = sealNewCode(key);
      return {
        userId,
        codeHash: sealed.codeHash,
        codeEncrypted: sealed.codeEncrypted,
        expiresAt: expiry.get(userId) ?? null,
      };
    }),
  });
}
