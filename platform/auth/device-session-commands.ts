import "server-only";
import { db } from "@/platform/db";

/**
 * Ends a person's device sessions (platform/auth/device-sessions.ts): `only` the one named, or every one but
 * `keep`. Another person's device is never touched (the user id is part of the match). The ids ended.
 */
export async function endDeviceSessions(
  userId: string,
  which: { only: string } | { keep: string | null },
): Promise<string[]> {
  const rows =
    "only" in which
      ? await db().$queryRaw<{ id: string }[]>`
          update device_sessions set ended_at = now()
          where id = ${which.only}::uuid and user_id = ${userId}::uuid and ended_at is null returning id::text`
      : await db().$queryRaw<{ id: string }[]>`
          update device_sessions set ended_at = now()
          where user_id = ${userId}::uuid and ended_at is null and id is distinct from ${which.keep}::uuid returning id::text`;
  return rows.map((r) => r.id);
}
