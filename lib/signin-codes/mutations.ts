import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { sealNewCode } from "./crypto";

/**
 * A first sign-in code for each of these students (a print's students without a live one), in one
 * statement; returns the codes by student. The caller has checked that they are its school's
 * students (lib/students/sheets-route.ts). `key` and `client`: the sheets renderer process's own
 * (lib/students/sheets-cards.ts).
 */
export async function issueFirstCodes(userIds: string[], key: string = env().SIGNIN_CODE_KEY, client: PrismaClient = db()): Promise<Map<string, string>> {
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
