import "server-only";
import { db } from "@/platform/db";
import { deviceOpenSql } from "./device-sessions";
import { type Role, STAFF_IDLE_MINUTES } from "./roles";

/** The school if it is of the academy (null otherwise). */
export function findAcademySchool(schoolId: string, academyId: string) {
  return db().school.findFirst({
    where: { id: schoolId, academyId },
    select: { id: true },
  });
}

/** The user of a session as getActor reads it (null when gone): one query, every request runs it. */
export interface ActorRow {
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
  /** the token's device session is open (signed out or ended from another device: false) */
  device_open: boolean;
  /** a teacher or manager unused for STAFF_IDLE_MINUTES */
  idle: boolean;
  /** last use not recorded in the last minute */
  touch: boolean;
}

/**
 * The user `id` with their school and academy, whether their session is idle and their last use due to be
 * recorded, and whether the device session `sid` (null: none) is still open.
 */
export async function readActorRow(id: string, sid: string | null): Promise<ActorRow | undefined> {
  const [user] = await db().$queryRawUnsafe<ActorRow[]>(
    `select u.id::text, u.role::text, u.email, u.name, u.name_kana, u.nickname, u.disabled, u.school_id::text, u.academy_id::text,
            s.name as school_name, s.name_kana as school_name_kana, a.name as academy_name, a.name_kana as academy_name_kana,
            u.session_version, ${deviceOpenSql("u.id", "$2::uuid")} as device_open,
            coalesce(u.role <> 'student' and u.last_active_at < now() - make_interval(mins => $3), false) as idle,
            coalesce(u.last_active_at < now() - interval '1 minute', true) as touch
     from users u left join schools s on s.id = u.school_id left join academies a on a.id = u.academy_id
     where u.id = $1::uuid`,
    id,
    sid,
    STAFF_IDLE_MINUTES,
  );
  return user;
}

/** Runs a batch of session checks (platform/auth/session-checks.ts) over the app's client. */
export function runSessionCheck<Row>(sql: string, params: unknown[]): Promise<Row[]> {
  return db().$queryRawUnsafe<Row[]>(sql, ...params);
}

/** The account with this e-mail: its role, whether disabled, its school and academy (null when none). */
export function findUserByEmail(email: string) {
  return db().user.findUnique({
    where: { email },
    select: { id: true, role: true, disabled: true, schoolId: true, academyId: true },
  });
}

/** A person an OpenID Connect sign-in may be: their role, whether disabled, school, academy and its Entra tenant. */
export interface OidcCandidate {
  id: string;
  role: Role;
  disabled: boolean;
  schoolId: string | null;
  academyId: string | null;
  entraTenantId: string | null;
}

/**
 * The person an OpenID Connect sign-in names: the one whose roster userMasterIdentifier is `rosterId`, else the one
 * whose e-mail is `email` (null when neither is given or matches); with the Entra tenant of their academy.
 */
export async function findOidcCandidate(ids: { email: string | null; rosterId: string | null }) {
  const rows = await db().$queryRaw<(OidcCandidate & { by_roster: boolean })[]>`
    select u.id::text, u.role::text, u.disabled, u.school_id::text as "schoolId",
           coalesce(u.academy_id, s.academy_id)::text as "academyId", a.entra_tenant_id as "entraTenantId",
           (u.user_master_identifier = ${ids.rosterId}) as by_roster
    from users u
    left join schools s on s.id = u.school_id
    left join academies a on a.id = coalesce(u.academy_id, s.academy_id)
    where u.user_master_identifier = ${ids.rosterId} or u.email = ${ids.email}
    order by by_roster desc nulls last
    limit 1`;
  const [row] = rows;
  if (!row) return null;
  const { by_roster: _, ...candidate } = row;
  return candidate;
}

/** The account signing in with a password: its hash, role, whether disabled, its school and academy. */
export function findPasswordUser(email: string) {
  return db().user.findUnique({
    where: { email },
    select: { id: true, role: true, passwordHash: true, disabled: true, schoolId: true, academyId: true },
  });
}

/** A sign-in code by its hash: whether revoked or expired, and its student. */
export function findSigninCode(codeHash: string) {
  return db().signinCode.findUnique({
    where: { codeHash },
    select: {
      id: true,
      revokedAt: true,
      expiresAt: true,
      user: { select: { id: true, role: true, disabled: true, schoolId: true } },
    },
  });
}

/** Who a sign-in code (by its hash) belongs to: their names and school, for "is this you?". */
export function findCodeHolder(codeHash: string) {
  return db().signinCode.findUnique({
    where: { codeHash },
    select: {
      user: {
        select: { name: true, nameKana: true, nickname: true, school: { select: { name: true, nameKana: true } } },
      },
    },
  });
}
