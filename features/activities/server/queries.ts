import "server-only";
import { z } from "zod";
import { db } from "@/platform/db";
import { Prisma } from "@/platform/db/generated/prisma/client";
import { containsPattern } from "@/platform/db/query-text";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";

export interface ActivityRow {
  id: string;
  title: string;
  actorType: "student" | "teacher";
  mode: "standby" | "guide" | "self" | "complete";
  status: "active" | "archived";
  /** The academic year (年度) it belongs to. */
  academicYear: number;
  sceneCount: number;
  /** answers stored so far (one per student and scene) */
  answers: number;
  respondents: number;
  /** the latest answer or guide session start; null when never used */
  lastUsedAt: Date | null;
  updatedAt: Date;
}

/**
 * The school's activities with their scene, answer and respondent counts and when they
 * were last used, in ONE statement whatever their number. `search` matches the title as
 * written, its base text and its readings (ruby markup |漢字(かんじ) stripped either way),
 * with LIKE's wildcards taken literally (platform/db/query-text.ts).
 */
/** Ruby markup |base(reading) (platform/richtext), and what to keep of it. */
const RUBY = String.raw`\|([^|()（）]*)[(（]([^()（）]*)[)）]`;
const BASE = String.raw`\1`;
const READING = String.raw`\2`;

/** A title column matching a LIKE pattern as written, by its base text or by its readings (the activity list's and the library's search). */
export function titleMatchesSql(title: Prisma.Sql, pattern: string): Prisma.Sql {
  return Prisma.sql`(${title} ilike ${pattern}
    or regexp_replace(${title}, ${RUBY}, ${BASE}, 'g') ilike ${pattern}
    or replace(regexp_replace(${title}, ${RUBY}, ${READING}, 'g'), '・', '') ilike ${pattern})`;
}

export async function listActivitiesForSchool(
  schoolId: AuthorizedSchoolId,
  status: "active" | "archived",
  filter: { search?: string; mode?: ActivityRow["mode"]; year?: number } = {},
): Promise<ActivityRow[]> {
  const pattern = filter.search ? containsPattern(filter.search) : null;
  const rows = await db().$queryRaw<
    {
      id: string;
      title: string;
      actor_type: ActivityRow["actorType"];
      mode: ActivityRow["mode"];
      status: ActivityRow["status"];
      academic_year: number;
      updated_at: Date;
      scenes: number;
      answers: number;
      respondents: number;
      last_used: Date | null;
    }[]
  >`
    select a.id, a.title, a.actor_type, a.mode, a.status, a.academic_year, a.updated_at,
      (select count(*)::int from activity_scenes s where s.activity_id = a.id) as scenes,
      coalesce(r.answers, 0) as answers, coalesce(r.respondents, 0) as respondents,
      greatest(r.last_answer, (select max(g.started_at) from guide_sessions g where g.activity_id = a.id)) as last_used
    from activities a
    left join lateral (
      select count(*)::int as answers, count(distinct responses.user_id)::int as respondents, max(responses.updated_at) as last_answer
      from responses join users u on u.id = responses.user_id and u.school_id = a.school_id
      where responses.activity_id = a.id
    ) r on true
    where a.school_id = ${schoolId}::uuid and a.status = ${status}::"ActivityStatus"
      and (${filter.mode ?? null}::text is null or a.mode::text = ${filter.mode ?? null}::text)
      and (${filter.year ?? null}::int is null or a.academic_year = ${filter.year ?? null}::int)
      and ${pattern === null ? Prisma.sql`true` : titleMatchesSql(Prisma.sql`a.title`, pattern)}
    order by a.updated_at desc, a.id`;
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    actorType: r.actor_type,
    mode: r.mode,
    status: r.status,
    academicYear: r.academic_year,
    updatedAt: r.updated_at,
    sceneCount: r.scenes,
    answers: r.answers,
    respondents: r.respondents,
    lastUsedAt: r.last_used,
  }));
}

/** The academic years (年度) of the school's activities with this status, latest first (the list's year filter). */
export async function listActivityYears(
  schoolId: AuthorizedSchoolId,
  status: "active" | "archived",
): Promise<number[]> {
  const rows = await db().activity.findMany({
    where: { schoolId, status },
    distinct: ["academicYear"],
    orderBy: { academicYear: "desc" },
    select: { academicYear: true },
  });
  return rows.map((r) => r.academicYear);
}

export async function listTemplates() {
  return db().activityTemplate.findMany({
    orderBy: { title: "asc" },
    select: {
      id: true,
      title: true,
      description: true,
      actorType: true,
      scenes: { orderBy: { position: "asc" }, select: { type: true, content: true } },
    },
  });
}

/** One activity of the school with its scenes in default order and its group orders; null when not in scope. */
export async function getActivityWithScenes(schoolId: AuthorizedSchoolId, activityId: string) {
  if (!z.uuid().safeParse(activityId).success) return null;
  return db().activity.findFirst({
    where: { id: activityId, schoolId },
    select: {
      id: true,
      title: true,
      actorType: true,
      mode: true,
      status: true,
      version: true,
      feedback: true,
      selfOpenScenes: true,
      allowRetries: true,
      curriculumCode: true,
      scenes: {
        orderBy: { position: "asc" },
        select: { id: true, type: true, content: true, position: true, version: true, curriculumCode: true },
      },
      sceneOrders: { select: { group: true, sceneIds: true } },
    },
  });
}

/** The school's activities answered most recently, with when and by how many (the teacher home's "recent results"). */
export async function listRecentlyAnswered(schoolId: AuthorizedSchoolId, limit = 5) {
  const rows = await db().$queryRaw<{ id: string; title: string; last: Date; n: bigint }[]>`
    select a.id, a.title, max(r.updated_at) as last, count(distinct r.user_id) as n
    from responses r join activities a on a.id = r.activity_id
    where a.school_id = ${schoolId}::uuid and a.status = 'active'
    group by a.id, a.title order by last desc limit ${limit}`;
  return rows.map((r) => ({ id: r.id, title: r.title, last: r.last, respondents: Number(r.n) }));
}

/**
 * Per answered scene of the activity: how many answered its current version (an edit of it makes a
 * new version, docs/adr/0059-scene-versions.md) and how many answered any version (a delete retires it).
 */
export async function countSceneAnswers(
  schoolId: AuthorizedSchoolId,
  activityId: string,
): Promise<Map<string, { current: number; all: number }>> {
  const rows = await db().$queryRaw<{ id: string; current: number; total: number }[]>`
    select s.id::text as id, count(*) filter (where r.scene_version = s.version)::int as current, count(*)::int as total
    from activity_scenes s join activities a on a.id = s.activity_id and a.school_id = ${schoolId}::uuid
    join responses r on r.scene_id = s.id
    where s.activity_id = ${activityId}::uuid
    group by s.id`;
  return new Map(rows.map((r) => [r.id, { current: r.current, all: r.total }]));
}

/** An activity's id and title, when it belongs to the school (an export's file name). */
export async function getActivityTitle(scope: AuthorizedSchoolId, activityId: string) {
  return db().activity.findFirst({ where: { id: activityId, schoolId: scope }, select: { id: true, title: true } });
}

/** How many scenes the school's activity has, or null when it is not one of the school's. */
export async function countScenes(scope: AuthorizedSchoolId, activityId: string): Promise<number | null> {
  const found = await db().activity.findFirst({
    where: { id: activityId, schoolId: scope },
    select: { _count: { select: { scenes: true } } },
  });
  return found ? found._count.scenes : null;
}
