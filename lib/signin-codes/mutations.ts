import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { sealNewCode } from "./crypto";

/**
 * A first sign-in code for each of these students (a print's students without a live one), in one
 * statement; returns the codes by student. The caller has checked that they are its school's
 * students (lib/students/sheets-route.ts).
 */
export async function issueFirstCodes(userIds: string[]): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  if (userIds.length === 0) return codes;
  const key = env().SIGNIN_CODE_KEY;
  await db().signinCode.createMany({
    data: userIds.map((userId) => {
      const sealed = sealNewCode(key);
      codes.set(userId, sealed.code);
      return { userId, codeHash: sealed.codeHash, codeEncrypted: sealed.codeEncrypted };
    }),
  });
  return codes;
}
