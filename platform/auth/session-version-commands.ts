import "server-only";
import { db } from "@/platform/db";

/**
 * Sessions end when they should (docs/adr/0034-sessions-end-when-they-should.md):
 * a session token carries the user's `session_version` from sign-in, and every
 * request that loads the user compares it (platform/auth/session.ts getActor, the
 * answer writer). Adding one ends every session of the user at once, copied
 * cookies included.
 */

/** At sign-in: the version the new token carries; the inactivity clock starts again. */
export async function openSession(userId: string): Promise<number> {
  const [row] = await db().$queryRaw<{ session_version: number }[]>`
    update users set last_active_at = now() where id = ${userId}::uuid returning session_version`;
  return row?.session_version ?? 0;
}

/** Ends every session of these users (sign-out, new password, disabled, new or revoked code). */
export async function endSessions(userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db().user.updateMany({ where: { id: { in: userIds } }, data: { sessionVersion: { increment: 1 } } });
}
