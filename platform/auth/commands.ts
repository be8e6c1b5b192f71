import "server-only";
import type { Account } from "next-auth";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import type { RequestClient } from "@/platform/security/client-ip";

/** Records a user's last use (a teacher's or manager's idle clock starts again), and their device's (sid). */
export async function touchLastActive(userId: string, sid: string | null = null): Promise<void> {
  await db().$executeRaw`
    with device as (
      update device_sessions set last_seen_at = now() where id = ${sid}::uuid and user_id = ${userId}::uuid returning id
    )
    update users set last_active_at = now() where id = ${userId}::uuid`;
}

/**
 * Counts one attempt against the throttle `key` in one atomic upsert (a new window starts when the old one,
 * `windowSecs` long, has passed); the window's count and start.
 */
export async function countThrottleAttempt(
  key: string,
  windowSecs: number,
): Promise<{ failures: number; window_start: Date } | undefined> {
  const [row] = await db().$queryRaw<{ failures: number; window_start: Date }[]>`
    insert into signin_throttles (key, failures, window_start) values (${key}, 1, now())
    on conflict (key) do update set
      failures = case when signin_throttles.window_start <= now() - make_interval(secs => ${windowSecs}) then 1 else signin_throttles.failures + 1 end,
      window_start = case when signin_throttles.window_start <= now() - make_interval(secs => ${windowSecs}) then now() else signin_throttles.window_start end
    returning failures, window_start`;
  return row;
}

/** Clears the count of `subjectKey` and gives `ipKey` one slot back, in one statement. */
export async function clearThrottle(subjectKey: string, ipKey: string): Promise<void> {
  await db().$executeRaw`
    with cleared as (delete from signin_throttles where key = ${subjectKey})
    update signin_throttles set failures = greatest(failures - 1, 0) where key = ${ipKey}`;
}

/** Stores a password reset token (its hash) until `expiresAt`. */
export async function insertResetToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
  await db().passwordResetToken.create({
    data: { userId, tokenHash, expiresAt },
    select: { id: true },
  });
}

/**
 * Uses the reset token `tokenHash` once, before it expires, to set `passwordHash`: every session of the account
 * ends and its other tokens are used up, in one transaction.
 */
export function redeemResetToken(
  tokenHash: string,
  passwordHash: string,
  client?: RequestClient,
): Promise<"ok" | "expiredActionCode"> {
  return db().$transaction(async (tx) => {
    const used = await tx.passwordResetToken.updateMany({
      where: { tokenHash, usedAt: null, expiresAt: { gt: new Date() } },
      data: { usedAt: new Date() },
    });
    if (used.count !== 1) return "expiredActionCode";
    const row = await tx.passwordResetToken.findUniqueOrThrow({ where: { tokenHash }, select: { userId: true } });
    // a new password ends every session of the account (one may be the intruder's)
    const user = await tx.user.update({
      where: { id: row.userId },
      data: { passwordHash, sessionVersion: { increment: 1 } },
      select: { schoolId: true, academyId: true },
    });
    await tx.passwordResetToken.updateMany({
      where: { userId: row.userId, usedAt: null },
      data: { usedAt: new Date() },
    });
    await audit({ action: "password.reset.done", actorId: row.userId, ...user, ...client }, tx);
    return "ok";
  });
}

/** Links a provider's account (Google) to the user, once. */
export async function linkAccount(userId: string, account: Account): Promise<void> {
  await db().account.upsert({
    where: {
      provider_providerAccountId: { provider: account.provider, providerAccountId: account.providerAccountId },
    },
    create: {
      userId,
      type: account.type,
      provider: account.provider,
      providerAccountId: account.providerAccountId,
    },
    update: {},
    select: { id: true },
  });
}

/** Records a sign-in of the user (at `at`, now by default). */
export async function recordSignIn(userId: string, at: Date = new Date()): Promise<void> {
  await db().user.update({ where: { id: userId }, data: { lastSignInAt: at }, select: { id: true } });
}

/** Records a use of a sign-in code (at `at`). */
export async function recordCodeUse(codeId: string, at: Date): Promise<void> {
  await db().signinCode.update({ where: { id: codeId }, data: { lastUsedAt: at }, select: { id: true } });
}
