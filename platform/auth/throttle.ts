import "server-only";
import { clearThrottle, countThrottleAttempt } from "./commands";

/**
 * Sign-in throttling that works behind school NAT. Every attempt first
 * reserves its slot in the database (one atomic upsert per key that returns
 * the window's count), and only then is the password or code checked: however
 * many attempts arrive at the same moment, at most LIMITS[kind] of them are
 * checked per key and window (15 minutes, fixed from its first attempt).
 *
 * Limits are per account, per code and per person's second factor (platform/auth/second-factor.ts). The per-address ceiling is a flood
 * guard only, and never refuses the first attempt at an account or code in a
 * window: one person behind a school's shared address cannot lock the school
 * out, and someone spraying guesses from one address gets one guess per
 * account per window. A successful sign-in clears its account's (or code's)
 * count and gives the address its slot back, so the address counts failures.
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const LIMITS = { account: 10, code: 10, factor: 5, ip: 500 } as const;
export type ThrottleKind = keyof typeof LIMITS;
export interface ThrottleKey {
  kind: ThrottleKind;
  value: string;
}

export const throttleKey = (kind: ThrottleKind, value: string) => `${kind}:${value}`;

/** Counts one attempt against `key`, atomically (a new window starts when the old one has passed); the window's count and the minutes left in it. */
export async function countAttempt(key: ThrottleKey): Promise<{ count: number; retryMinutes: number }> {
  const row = await countThrottleAttempt(throttleKey(key.kind, key.value), WINDOW_MS / 1000);
  const left = row ? row.window_start.getTime() + WINDOW_MS - Date.now() : WINDOW_MS;
  return { count: row?.failures ?? 1, retryMinutes: Math.max(1, Math.ceil(left / 60000)) };
}

export type Reservation = { ok: true } | { ok: false; retryMinutes: number };

/** Reserves one check of `subject` (an account or a code) from `ip`, before the check runs. */
export async function reserveAttempt(subject: ThrottleKey, ip: string): Promise<Reservation> {
  const own = await countAttempt(subject);
  if (own.count > LIMITS[subject.kind]) return { ok: false, retryMinutes: own.retryMinutes };
  const flood = await countAttempt({ kind: "ip", value: ip });
  if (flood.count > LIMITS.ip && own.count > 1) return { ok: false, retryMinutes: flood.retryMinutes };
  return { ok: true };
}

/** After a successful sign-in: the account's (or code's) count is cleared, and the address gets its slot back. */
export async function recordSuccess(subject: ThrottleKey, ip: string): Promise<void> {
  // One statement, not a transaction of two: a school's sign-ins share its address's row, and a transaction kept
  // that row locked across a round trip to this busy process, so that a storm of sign-ins queued on it and ran out
  // of pool connections (measured: docs/benchmarks.md, the sign-in storm).
  await clearThrottle(throttleKey(subject.kind, subject.value), throttleKey("ip", ip));
}
