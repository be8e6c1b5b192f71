import "server-only";
import { audit } from "@/platform/audit/log";
import { env } from "@/platform/env";
import { countSigninFailure } from "@/platform/ops/metrics";
import { log } from "@/platform/ops/log";
import { hashCode, isWellFormedCode } from "@/platform/auth/signin-code-crypto";
import type { RequestClient } from "@/platform/security/client-ip";
import { recordCodeUse, recordSignIn } from "./commands";
import type { SigninErrorCode } from "./errors";
import { dummyPasswordHash, verifyPassword } from "./password";
import { findPasswordUser, findSigninCode } from "./queries";
import { signinInputSchema } from "./schema";
import { recordSuccess, reserveAttempt } from "./throttle";

export type SigninResult =
  | { ok: true; user: { id: string; role: "student" | "teacher" | "manager" } }
  | { ok: false; code: SigninErrorCode; retryMinutes?: number };

/** A failed sign-in in the metrics (manabiya_signin_failures_total), by method and reason. */
const counted = (method: "password" | "code", result: SigninResult): SigninResult => {
  if (!result.ok) countSigninFailure(method, result.code);
  return result;
};

/**
 * Checks an e-mail and password (argon2id), throttled per account (the attempt is counted before argon2 runs), and
 * records the attempt in the sign-in log (the audit log; never the password).
 */
export async function checkPassword(
  input: unknown,
  ip: string,
  userAgent: string | null = null,
): Promise<SigninResult> {
  return counted("password", await passwordResult(input, { ip, userAgent }));
}

/**
 * Checks a student's QR sign-in code (live, not expired, account enabled), throttled per code (counted before the
 * check), and records the attempt in the sign-in log (never the code).
 */
export async function checkCode(code: unknown, ip: string, userAgent: string | null = null): Promise<SigninResult> {
  return counted("code", await codeResult(code, { ip, userAgent }));
}

async function passwordResult(input: unknown, client: RequestClient): Promise<SigninResult> {
  const parsed = signinInputSchema.safeParse(input);
  if (!parsed.success) {
    // not audited (nothing to tie it to): the log line alone, like the audited failures' (platform/audit/log.ts)
    log().info({ event: "signin.password.failure", method: "password", reason: "invalidEmail" }, "audit");
    return { ok: false, code: "invalidEmail" };
  }
  const { email, password } = parsed.data;
  const subject = { kind: "account", value: email } as const;
  const reserved = await reserveAttempt(subject, client.ip);
  if (!reserved.ok) {
    await audit({ action: "signin.password.throttled", ...client, meta: { email, reason: "tooManyRequests" } });
    return { ok: false, code: "tooManyRequests", retryMinutes: reserved.retryMinutes };
  }
  const user = await findPasswordUser(email);
  const fail = async (code: SigninErrorCode) => {
    await audit({
      action: "signin.password.failure",
      actorId: user?.id,
      ...client,
      schoolId: user?.schoolId,
      academyId: user?.academyId,
      meta: { email, reason: code },
    });
    return { ok: false as const, code };
  };
  if (!user?.passwordHash) {
    await verifyPassword(await dummyPasswordHash(), password); // same work as a real check
    return fail("userNotFound");
  }
  if (!(await verifyPassword(user.passwordHash, password))) return fail("wrongPassword");
  if (user.disabled) return fail("userDisabled");
  await recordSuccess(subject, client.ip);
  await recordSignIn(user.id);
  await audit({
    action: "signin.password.success",
    actorId: user.id,
    ...client,
    schoolId: user.schoolId,
    academyId: user.academyId,
  });
  return { ok: true, user: { id: user.id, role: user.role } };
}

async function codeResult(code: unknown, client: RequestClient): Promise<SigninResult> {
  if (typeof code !== "string" || !isWellFormedCode(code)) {
    log().info({ event: "signin.code.failure", method: "code", reason: "malformed" }, "audit");
    return { ok: false, code: "invalidCode" };
  }
  const codeHash = hashCode(code, env().SIGNIN_CODE_KEY);
  const subject = { kind: "code", value: codeHash } as const;
  const reserved = await reserveAttempt(subject, client.ip);
  if (!reserved.ok) {
    await audit({ action: "signin.code.throttled", ...client, meta: { reason: "tooManyRequests" } });
    return { ok: false, code: "tooManyRequests", retryMinutes: reserved.retryMinutes };
  }
  const now = new Date();
  const row = await findSigninCode(codeHash);
  const live = row && !row.revokedAt && (!row.expiresAt || row.expiresAt > now) && row.user.role === "student";
  if (!row || !live) {
    await audit({
      action: "signin.code.failure",
      actorId: row?.user.id,
      ...client,
      schoolId: row?.user.schoolId,
      meta: { reason: row ? "revokedOrExpired" : "unknown" },
    });
    return { ok: false, code: "invalidCode" };
  }
  if (row.user.disabled) {
    await audit({
      action: "signin.code.failure",
      actorId: row.user.id,
      ...client,
      schoolId: row.user.schoolId,
      meta: { reason: "userDisabled" },
    });
    return { ok: false, code: "userDisabled" };
  }
  await recordSuccess(subject, client.ip);
  // two bookkeeping writes, not a transaction: under a storm of sign-ins a transaction waits for a pool connection
  // of its own only 2 s and then fails the sign-in (measured: docs/benchmarks.md, the sign-in storm)
  await recordCodeUse(row.id, now);
  await recordSignIn(row.user.id, now);
  await audit({
    action: "signin.code.success",
    actorId: row.user.id,
    ...client,
    schoolId: row.user.schoolId,
    targetType: "signinCode",
    targetId: row.id,
  });
  return { ok: true, user: { id: row.user.id, role: row.user.role } };
}
