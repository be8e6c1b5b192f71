import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { db } from "@/platform/db";
import { env } from "@/platform/env";
import { sessionCheckLoader } from "./session-checks";
import { readSessionCookie } from "./session-token";
import { endSessions } from "./session-version";
import { homeOf, isRole, type Role, STAFF_IDLE_MINUTES } from "./roles";

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
async function sessionOf(): Promise<{ id: string; sv: number } | null> {
  const session = await readSessionCookie((await cookies()).getAll(), env().AUTH_SECRET);
  return session && isRole(session.role) ? { id: session.id, sv: session.sv } : null;
}

export { STAFF_IDLE_MINUTES } from "./roles";

interface ActorRow {
  id: string;
  role: Role;
  email: string | null;
  name: string | null;
  name_kana: string | null;
  nickname: string | null;
  disabled: boolean;
  school_id: string | null;
  academy_id: string | null;
  school_name: string | null;
  school_name_kana: string | null;
  academy_name: string | null;
  academy_name_kana: string | null;
  session_version: number;
  /** a teacher or manager unused for STAFF_IDLE_MINUTES */
  idle: boolean;
  /** last use not recorded in the last minute */
  touch: boolean;
}

/** null when nobody is signed in. `disabled` when the account was disabled since sign-in. One query: every request runs it. */
export const getActor = cache(async (): Promise<Actor | null | "disabled"> => {
  const session = await sessionOf();
  if (!session) return null;
  const { id } = session;
  const [user] = await db().$queryRaw<ActorRow[]>`
    select u.id::text, u.role::text, u.email, u.name, u.name_kana, u.nickname, u.disabled, u.school_id::text, u.academy_id::text,
           s.name as school_name, s.name_kana as school_name_kana, a.name as academy_name, a.name_kana as academy_name_kana,
           u.session_version,
           coalesce(u.role <> 'student' and u.last_active_at < now() - make_interval(mins => ${STAFF_IDLE_MINUTES}), false) as idle,
           coalesce(u.last_active_at < now() - interval '1 minute', true) as touch
    from users u left join schools s on s.id = u.school_id left join academies a on a.id = u.academy_id
    where u.id = ${id}::uuid`;
  if (!user) return null;
  if (user.disabled) return "disabled";
  // a session ended since (sign-out, new password, new code…): signed out
  if (user.session_version !== session.sv) return null;
  if (user.role !== "student") {
    if (user.idle) {
      await endSessions([id]); // idle: every session of the user ends, so none comes back at the next sign-in
      return null;
    }
    if (user.touch) await db().$executeRaw`update users set last_active_at = now() where id = ${id}::uuid`;
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
  return () => sessionChecks().load(`${session.id}:${session.sv}`);
}

/** The checks made in the same turn of the event loop (an instance's streams' heartbeats) go as ONE query (platform/auth/session-checks.ts). */
function sessionChecks() {
  const g = globalThis as unknown as { manabiyaSessionChecks?: ReturnType<typeof sessionCheckLoader> };
  return (g.manabiyaSessionChecks ??= sessionCheckLoader((sql, ids) => db().$queryRawUnsafe(sql, ids)));
}

/** The path the proxy saw, for `from` (set by proxy.ts). */
async function currentPath(): Promise<string> {
  return (await headers()).get("x-manabiya-path") ?? "/";
}

/**
 * Layout and page guard (docs/architecture.md layer 2/3): no user → /signin?from=…;
 * disabled → signed out; another role → that role's home.
 */
export async function requireRole(role: Role): Promise<Actor> {
  const actor = await getActor();
  if (actor === "disabled") redirect("/auth/ended?reason=userDisabled");
  if (!actor) redirect(`/signin?from=${encodeURIComponent(await currentPath())}`);
  if (actor.role !== role) redirect(homeOf(actor.role));
  return actor;
}
