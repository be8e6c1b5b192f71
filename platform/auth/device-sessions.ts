/**
 * A teacher's or manager's signed-in devices (the device_sessions table): each sign-in of staff opens one,
 * and its id travels in the session token as `sid`. A request is signed in only while its device is open
 * (not signed out, not ended from another device) AND the token's session version is the user's (which a new
 * password, disabling or idling raise: every device at once). Students' tokens carry no `sid`: a shared
 * tablet's sign-ins are not listed, and their hot paths (answers, streams) check the version alone.
 * Framework-free: the same condition runs over Prisma (getActor), over node-postgres (the advance endpoint,
 * the streams' heartbeat checks).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The token's `sid` claim when it is a device session's id; null for tokens without one (students). */
export function sidOf(claim: unknown): string | null {
  return typeof claim === "string" && UUID.test(claim) ? claim : null;
}

/**
 * SQL: the device session `sid` (a uuid expression; null: a token without one) of the user `user` (a uuid
 * expression) is still open, and not waiting for its second factor (platform/auth/second-factor.ts).
 */
export function deviceOpenSql(user: string, sid: string): string {
  return `(${sid} is null or exists (select 1 from device_sessions d where d.id = ${sid} and d.user_id = ${user} and d.ended_at is null and not d.second_factor_pending))`;
}

/** How long a device stays listed: a session token lasts 12 hours from sign-in (platform/auth/config.ts). */
export const SESSION_HOURS = 12;
