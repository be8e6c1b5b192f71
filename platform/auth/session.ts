import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { env } from "@/platform/env";
import { sessionCheckKey, sessionCheckLoader } from "./session-checks";
import { readSessionCookie } from "./session-token";
import { endSessions } from "./session-version-commands";
import { homeOf, isRole, type Role } from "./roles";
import { touchLastActive } from "./commands";
import { readActorRow, runSessionCheck } from "./queries";
import { findPendingSignin } from "./second-factor-queries";

/** The signed-in person as the database says now (a JWT can be stale). */
export interface Actor {
  id: string;
  role: Role;
  email: string | null;
  name: string | null;
  nameKana: string | null;
  nickname: string | null;
  schoolId: string | null;
  academyId: string | null;
  school: { name: string; nameKana: string } | null;
  academy: { name: string; nameKana: string } | null;
}

/**
 * The signed-in user's id from the session cookie (the token next-auth set at
 * sign-in, decrypted and checked for expiry). Read directly rather than
 * through auth(), which emulates a whole request to the session endpoint and
 * re-encrypts the token on every call: the live and answer paths read it on
 * every request. A session lasts 12 hours from sign-in (platform/auth/config.ts),
 * a teacher's or manager's ends sooner after STAFF_IDLE_MINUTES without use.
 */
async function sessionOf(): Promise<{ id: string; sv: number; sid: string | null } | null> {
  const session = await readSessionCookie((await cookies()).getAll(), env().AUTH_SECRET);
  return session && isRole(session.role) ? { id: session.id, sv: session.sv, sid: session.sid } : null;
}

/** The origins that may frame this request's session's pages (an LTI session's portal; none: []). */
export async function sessionFrameAncestors(): Promise<string[]> {
  return (await readSessionCookie((await cookies()).getAll(), env().AUTH_SECRET))?.frameAncestors ?? [];
}

export { STAFF_IDLE_MINUTES } from "./roles";

/** null when nobody is signed in. `disabled` when the account was disabled since sign-in. One query: every request runs it. */
export const getActor = cache(async (): Promise<Actor | null | "disabled"> => {
  const session = await sessionOf();
  if (!session) return null;
  const { id, sid } = session;
  const user = await readActorRow(id, sid);
  if (!user) return null;
  if (user.disabled) return "disabled";
  // a session ended since (sign-out, new password, new code…), or this device ended from another: signed out
  if (user.session_version !== session.sv || !user.device_open) return null;
  if (user.role !== "student") {
    if (user.idle) {
      await endSessions([id]); // idle: every session of the user ends, so none comes back at the next sign-in
      return null;
    }
    if (user.touch) await touchLastActive(id, sid);
  }
  return {
    id: user.id,
    role: user.role,
    email: user.email,
    name: user.name,
    nameKana: user.name_kana,
    nickname: user.nickname,
    schoolId: user.school_id,
    academyId: user.academy_id,
    school: user.school_name !== null ? { name: user.school_name, nameKana: user.school_name_kana ?? "" } : null,
    academy: user.academy_name !== null ? { name: user.academy_name, nameKana: user.academy_name_kana ?? "" } : null,
  };
});

/**
 * For responses that stay open (event streams): a check, run again on every
 * heartbeat, that the session which opened the response is still the user's
 * current one (not signed out, no new password or code, not disabled since).
 */
export async function sessionStillCurrent(): Promise<() => Promise<boolean>> {
  const session = await sessionOf();
  if (!session) return async () => false;
  return () => sessionChecks().load(sessionCheckKey(session));
}

/** The checks made in the same turn of the event loop (an instance's streams' heartbeats) go as ONE query (platform/auth/session-checks.ts). */
function sessionChecks() {
  const g = globalThis as unknown as { manabiyaSessionChecks?: ReturnType<typeof sessionCheckLoader> };
  return (g.manabiyaSessionChecks ??= sessionCheckLoader(runSessionCheck));
}

/** The path the proxy saw, for `from` (set by proxy.ts). */
async function currentPath(): Promise<string> {
  return (await headers()).get("x-manabiya-path") ?? "/";
}

/** The second-factor step's page (platform/auth/second-factor.ts). */
export const SECOND_FACTOR_PATH = "/auth/second-factor";

/**
 * The staff sign-in of this request waiting for its second factor (platform/auth/second-factor.ts): who and which
 * device. Null when the token names none (signed in, signed out, ended, disabled). getActor refuses such a session.
 */
export async function getPendingSignin() {
  const session = await sessionOf();
  if (!session?.sid) return null;
  const user = await findPendingSignin(session.id, session.sv, session.sid);
  return user ? { ...user, sid: session.sid } : null;
}

/**
 * Layout and page guard (docs/architecture.md layer 2/3): no user → /signin?from=… (a sign-in waiting for its
 * second factor → that step); disabled → signed out; another role → that role's home.
 */
export async function requireRole(role: Role): Promise<Actor> {
  const actor = await getActor();
  if (actor === "disabled") redirect("/auth/ended?reason=userDisabled");
  if (!actor) {
    const from = encodeURIComponent(await currentPath());
    redirect((await getPendingSignin()) ? `${SECOND_FACTOR_PATH}?from=${from}` : `/signin?from=${from}`);
  }
  if (actor.role !== role) redirect(homeOf(actor.role));
  return actor;
}

/** The device session of this request's token (platform/auth/device-sessions.ts): null for students and older tokens. */
export async function currentDeviceId(): Promise<string | null> {
  return (await sessionOf())?.sid ?? null;
}
