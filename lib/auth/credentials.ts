import "server-only";
import { audit } from "@/lib/audit/log";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { hashCode, isWellFormedCode } from "@/lib/signin-codes/crypto";
import type { SigninErrorCode } from "./errors";
import { dummyPasswordHash, verifyPassword } from "./password";
import { signinInputSchema } from "./schema";
import { recordSuccess, reserveAttempt } from "./throttle";

export type SigninResult =
  | { ok: true; user: { id: string; role: "student" | "teacher" | "manager" } }
  | { ok: false; code: SigninErrorCode; retryMinutes?: number };

/** Checks an e-mail and password (argon2id), throttled per account (the attempt is counted before argon2 runs), and audits the attempt. */
export async function checkPassword(input: unknown, ip: string): Promise<SigninResult> {
  const parsed = signinInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, code: "invalidEmail" };
  const { email, password } = parsed.data;
  const subject = { kind: "account", value: email } as const;
  const reserved = await reserveAttempt(subject, ip);
  if (!reserved.ok) {
    await audit({ action: "signin.password.throttled", ip, meta: { email } });
    return { ok: false, code: "tooManyRequests", retryMinutes: reserved.retryMinutes };
  }
  const user = await db().user.findUnique({
    where: { email },
    select: { id: true, role: true, passwordHash: true, disabled: true, schoolId: true, academyId: true },
  });
  const fail = async (code: SigninErrorCode) => {
    await audit({ action: "signin.password.failure", actorId: user?.id, ip, schoolId: user?.schoolId, academyId: user?.academyId, meta: { email, reason: code } });
    return { ok: false as const, code };
  };
  if (!user?.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), password); // same work as a real check
    return fail("userNotFound");
  }
  if (!(await verifyPassword(user.passwordHash, password))) return fail("wrongPassword");
  if (user.disabled) return fail("userDisabled");
  await recordSuccess(subject, ip);
  await db().user.update({ where: { id: user.id }, data: { lastSignInAt: new Date() }, select: { id: true } });
  await audit({ action: "signin.password.success", actorId: user.id, ip, schoolId: user.schoolId, academyId: user.academyId });
  return { ok: true, user: { id: user.id, role: user.role } };
}

/** Checks a student's QR sign-in code (live, not expired, account enabled), throttled per code (counted before the check). */
export async function checkCode(code: unknown, ip: string): Promise<SigninResult> {
  if (typeof code !== "string" || !isWellFormedCode(code)) return { ok: false, code: "invalidCode" };
  const codeHash = hashCode(code, env().SIGNIN_CODE_KEY);
  const subject = { kind: "code", value: codeHash } as const;
  const reserved = await reserveAttempt(subject, ip);
  if (!reserved.ok) return { ok: false, code: "tooManyRequests", retryMinutes: reserved.retryMinutes };
  const now = new Date();
  const row = await db().signinCode.findUnique({
    where: { codeHash },
    select: {
      id: true, revokedAt: true, expiresAt: true,
      user: { select: { id: true, role: true, disabled: true, schoolId: true } },
    },
  });
  const live = row && !row.revokedAt && (!row.expiresAt || row.expiresAt > now) && row.user.role === "student";
  if (!row || !live) {
    await audit({ action: "signin.code.failure", actorId: row?.user.id, ip, schoolId: row?.user.schoolId, meta: { reason: row ? "revokedOrExpired" : "unknown" } });
    return { ok: false, code: "invalidCode" };
  }
  if (row.user.disabled) {
    await audit({ action: "signin.code.failure", actorId: row.user.id, ip, schoolId: row.user.schoolId, meta: { reason: "userDisabled" } });
    return { ok: false, code: "userDisabled" };
  }
  await recordSuccess(subject, ip);
  // two bookkeeping writes, not a transaction: under a storm of sign-ins a transaction waits for a pool connection
  // of its own only 2 s and then fails the sign-in (measured: docs/benchmarks.md, the sign-in storm)
  await db().signinCode.update({ where: { id: row.id }, data: { lastUsedAt: now }, select: { id: true } });
  await db().user.update({ where: { id: row.user.id }, data: { lastSignInAt: now }, select: { id: true } });
  await audit({ action: "signin.code.success", actorId: row.user.id, ip, schoolId: row.user.schoolId, targetType: "signinCode", targetId: row.id });
  return { ok: true, user: { id: row.user.id, role: row.user.role } };
}
