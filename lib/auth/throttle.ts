import "server-only";
import { db } from "@/lib/db";

/**
 * Sign-in throttling that works behind school NAT: failures are counted per
 * account and per code (10 in 15 minutes), and per IP address only as a
 * generous flood ceiling. Successful sign-ins are never counted.
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const LIMITS = { account: 10, code: 10, ip: 500 } as const;
export type ThrottleKind = keyof typeof LIMITS;

export const throttleKey = (kind: ThrottleKind, value: string) => `${kind}:${value}`;

/** Minutes until the earliest of `keys` lets sign-ins through again, or 0 when none is locked. */
export async function lockedMinutes(keys: { kind: ThrottleKind; value: string }[], now = new Date()): Promise<number> {
  const rows = await db().signinThrottle.findMany({
    where: { key: { in: keys.map((k) => throttleKey(k.kind, k.value)) } },
    select: { key: true, failures: true, windowStart: true },
  });
  let wait = 0;
  for (const row of rows) {
    const kind = row.key.slice(0, row.key.indexOf(":")) as ThrottleKind;
    const until = row.windowStart.getTime() + WINDOW_MS;
    if (row.failures >= LIMITS[kind] && until > now.getTime()) wait = Math.max(wait, until - now.getTime());
  }
  return wait === 0 ? 0 : Math.max(1, Math.ceil(wait / 60000));
}

/** Counts one failure against each key (a new window starts when the old one has passed). */
export async function recordFailure(keys: { kind: ThrottleKind; value: string }[]): Promise<void> {
  for (const k of keys) {
    await db().$executeRaw`
      insert into signin_throttles (key, failures, window_start) values (${throttleKey(k.kind, k.value)}, 1, now())
      on conflict (key) do update set
        failures = case when signin_throttles.window_start < now() - interval '15 minutes' then 1 else signin_throttles.failures + 1 end,
        window_start = case when signin_throttles.window_start < now() - interval '15 minutes' then now() else signin_throttles.window_start end`;
  }
}

/** A successful sign-in clears the account's (or code's) count. */
export async function clearFailures(key: { kind: ThrottleKind; value: string }): Promise<void> {
  await db().signinThrottle.deleteMany({ where: { key: throttleKey(key.kind, key.value) } });
}
