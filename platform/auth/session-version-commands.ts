import "server-only";
import { db } from "@/platform/db";
import { USER_AGENT_MAX } from "@/platform/audit/commands";
import type { RequestClient } from "@/platform/security/client-ip";

/**
 * Sessions end when they should (docs/adr/0034-sessions-end-when-they-should.md):
 * a session token carries the user's `session_version` from sign-in, and every
 * request that loads the user compares it (platform/auth/session.ts getActor, the
 * answer writer). Adding one ends every session of the user at once, copied
 * cookies included. A teacher's or manager's sign-in also opens a device session
 * (platform/auth/device-sessions.ts), which ends on its own.
 */

/**
 * At sign-in: the version the new token carries and, for staff, the new device session's id (`pending`: waiting
 * for the second factor, platform/auth/second-factor.ts); the inactivity clock starts again.
 */
export async function openSession(
  userId: string,
  method: string,
  client: RequestClient,
  pending = false,
): Promise<{ sv: number; sid: string | null }> {
  const [row] = await db().$queryRaw<{ session_version: number; sid: string | null }[]>`
    with u as (
      update users set last_active_at = now() where id = ${userId}::uuid returning id, role, session_version
    ), device as (
      insert into device_sessions (user_id, session_version, method, ip, user_agent, second_factor_pending)
      select id, session_version, ${method}, ${client.ip}, ${client.userAgent?.slice(0, USER_AGENT_MAX) ?? null}, ${pending}
      from u where role <> 'student'
      returning id
    )
    select u.session_version, (select id::text from device) as sid from u`;
  return { sv: row?.session_version ?? 0, sid: row?.sid ?? null };
}

/** Ends every session of these users (sign-out, new password, disabled, new or revoked code). */
export async function endSessions(userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db().user.updateMany({ where: { id: { in: userIds } }, data: { sessionVersion: { increment: 1 } } });
}
