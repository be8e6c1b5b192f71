import "server-only";
import { titleMatchesSql } from "@/features/activities/server/queries";
import { db } from "@/platform/db";
import { Prisma } from "@/platform/db/generated/prisma/client";
import { containsPattern } from "@/platform/db/query-text";
import type { AuthorizedSchoolId, ScopeActor } from "@/platform/auth/scope";
import { LIBRARY_PAGE_SIZE, type LibraryFilter } from "../shared/library-schema";
import { type Grade, STAGES, type Subject } from "../shared/library-tags";

declare const academy: unique symbol;
/** The academy whose library the acting user may read (only libraryAcademyOf makes them). */
export type LibraryAcademyId = string & { readonly [academy]: true };

/**
 * Whose library a user reads: a manager their academy's, a teacher the
 * academy of their school (read from the database, as the actor is); a
 * student or a teacher without a school none.
 */
export async function libraryAcademyOf(actor: ScopeActor): Promise<LibraryAcademyId | null> {
  if (actor.role === "manager") return (actor.academyId as LibraryAcademyId | null) ?? null;
  if (actor.role !== "teacher" || !actor.schoolId) return null;
  const school = await db().school.findUnique({ where: { id: actor.schoolId }, select: { academyId: true } });
  return (school?.academyId as LibraryAcademyId | undefined) ?? null;
}

export interface LibraryRow {
  id: string;
  title: string;
  actorType: "student" | "teacher";
  sceneCount: number;
  subject: Subject | null;
  grade: Grade | null;
  unit: string;
  publishedAt: Date;
  school: { name: string; nameKana: string } | null;
  /** one of the ready activities written by us (prisma/content/library), not a school's */
  bundled: boolean;
  /** the scenes' prompts (stored rich text), for the preview */
  prompts: string[];
}

/**
 * One page of the academy's library, newest first, with the number of all
 * matches. The title search is the activity list's (as written, base text or
 * reading; % and _ literal); subject and grade are exact, a stage (e, j, h) every grade
 * of it, the unit a substring.
 */
export async function listLibraryEntries(
  academyId: LibraryAcademyId,
  filter: LibraryFilter,
): Promise<{ rows: LibraryRow[]; total: number }> {
  const where = Prisma.sql`e.academy_id = ${academyId}::uuid
    and ${filter.q ? titleMatchesSql(Prisma.sql`e.title`, containsPattern(filter.q)) : Prisma.sql`true`}
    and ${filter.subject ? Prisma.sql`e.subject = ${filter.subject}` : Prisma.sql`true`}
    and ${gradeSql(filter.grade)}
    and ${filter.unit ? Prisma.sql`e.unit ilike ${containsPattern(filter.unit)}` : Prisma.sql`true`}`;
  const offset = (filter.page - 1) * LIBRARY_PAGE_SIZE;
  const [rows, count] = await Promise.all([
    db().$queryRaw<
      {
        id: string;
        title: string;
        actor_type: LibraryRow["actorType"];
        scene_count: number;
        subject: Subject | null;
        grade: Grade | null;
        unit: string;
        published_at: Date;
        school_name: string | null;
        school_kana: string | null;
        bundled: boolean;
        prompts: string[] | null;
      }[]
    >`
      select e.id, e.title, e.actor_type, e.scene_count, e.subject, e.grade, e.unit, e.published_at,
        s.name as school_name, s.name_kana as school_kana,
        e.bundle_id is not null as bundled,
        (select array_agg(coalesce(x->'content'->>'prompt', '')) from jsonb_array_elements(e.content->'scenes') x) as prompts
      from library_entries e left join schools s on s.id = e.source_school_id
      where ${where}
      order by e.published_at desc, e.id
      limit ${LIBRARY_PAGE_SIZE} offset ${offset}`,
    db().$queryRaw<{ n: number }[]>`select count(*)::int as n from library_entries e where ${where}`,
  ]);
  return {
    total: count[0]?.n ?? 0,
    rows: rows.map((r) => ({
      id: r.id,
      title: r.title,
      actorType: r.actor_type,
      sceneCount: r.scene_count,
      subject: r.subject,
      grade: r.grade,
      unit: r.unit,
      publishedAt: r.published_at,
      school: r.school_name === null ? null : { name: r.school_name, nameKana: r.school_kana ?? "" },
      bundled: r.bundled,
      prompts: r.prompts ?? [],
    })),
  };
}

function gradeSql(grade: LibraryFilter["grade"]): Prisma.Sql {
  if (!grade) return Prisma.sql`true`;
  if ((STAGES as readonly string[]).includes(grade)) return Prisma.sql`left(e.grade, 1) = ${grade}`;
  return Prisma.sql`e.grade = ${grade}`;
}

/** Which of the school's activities are in the library (the manager's publish form marks them). */
export async function listPublishedActivityIds(schoolId: AuthorizedSchoolId): Promise<string[]> {
  const rows = await db().libraryEntry.findMany({
    where: { sourceSchoolId: schoolId, sourceActivityId: { not: null } },
    select: { sourceActivityId: true },
  });
  return rows.map((r) => r.sourceActivityId!);
}

/** The academy's schools (a manager's copy target), by name. */
export async function listAcademySchools(academyId: LibraryAcademyId): Promise<{ id: string; name: string }[]> {
  return db().school.findMany({ where: { academyId }, orderBy: { name: "asc" }, select: { id: true, name: true } });
}
