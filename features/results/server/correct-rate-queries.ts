import "server-only";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { seatInYearJoin, seatInYearSql } from "@/features/people/server/year-seat";
import { classKeySql } from "@/features/people/shared/class-key";
import { Prisma } from "@/platform/db/generated/prisma/client";
import type { StatsFilter } from "../shared/schema";
import { correctSql, hasKeySql, KEYED_TYPES_SQL, keyColumnsSql, secondKeySql } from "@/features/scenes/shared/key-sql";

/** Answered and correct answers of one scene: all students, and per counterbalance group. */
export interface CorrectRate {
  all: RateCount;
  groups: Record<string, RateCount>;
  /** Free text and drawing: counted from the teachers' marks (`answered` = marked answers). */
  marked?: true;
}
/** `partly` only for marked scenes: "partly correct" is counted on its own, never as correct. */
export type RateCount = { answered: number; correct: number; partly?: number };

/**
 * The correct rate of every scene with a key (features/scenes/shared/key.ts `verdictOf`, the same rules in
 * SQL): one grouped pass over the activity's responses by the school's students, nothing
 * loaded row by row. Groups are the student's counterbalance group ("" for none); the stats
 * page's filters (group, class, mode) narrow it as they narrow the rest of the page.
 */
export async function correctRates(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  filter: StatsFilter = {},
): Promise<Record<string, CorrectRate>> {
  const [rows, marked] = await Promise.all([
    keyedRows(schoolId, activityId, filter),
    markedRates(schoolId, activityId, filter),
  ]);
  const out: Record<string, CorrectRate> = {};
  for (const r of rows) {
    const rate = (out[r.scene_id] ??= { all: { answered: 0, correct: 0 }, groups: {} });
    if (r.grp === null) rate.all = { answered: r.answered, correct: r.correct };
    else rate.groups[r.grp] = { answered: r.answered, correct: r.correct };
  }
  return { ...out, ...marked };
}

function keyedRows(schoolId: AuthorizedSchoolId, activityId: string, filter: StatsFilter) {
  return db().$queryRawUnsafe<{ scene_id: string; grp: string; answered: number; correct: number }[]>(
    `with k as (
       select s.id, s.type::text as type, s.content, s.version, ${keyColumnsSql("s")}
       from activity_scenes s join activities a on a.id = s.activity_id
       where s.activity_id = $1::uuid and a.school_id = $2::uuid and s.type in ${KEYED_TYPES_SQL}
     ),
     v as (
       select r.scene_id, coalesce(sd.counterbalance_group, '') as grp,
         ${correctSql("k", "r")} as ok,
         k.type, k.opts, k.firsts, sec.ids as seconds
       from responses r
       -- the key of the current version: answers to earlier versions are not marked by it (docs/adr/0059-scene-versions.md)
       join k on k.id = r.scene_id and r.scene_version = k.version
       join users u on u.id = r.user_id and u.role = 'student' and u.school_id = $2::uuid
       ${seatInYearSql("u.id", "(select ya.academic_year from activities ya where ya.id = $1::uuid)")}
       ${secondKeySql("k", "r")}
       where r.activity_id = $1::uuid
         and ($3::text is null or sd.counterbalance_group = $3::text)
         and ($4::text is null or ${classKeySql("sd")} = $4::text)
         and ($5::text is null or r.mode::text = $5::text)
     )
     select scene_id::text, grp, count(*)::int as answered, count(*) filter (where ok)::int as correct
     from v
     -- a scene with a key: an ordering or matching, or some option (anywhere in it) marked
     where exists (select 1 from k where k.id = v.scene_id and ${hasKeySql("k.content", "k.type")})
     group by grouping sets ((scene_id), (scene_id, grp))`,
    activityId,
    schoolId,
    filter.group ?? null,
    filter.class ?? null,
    filter.mode ?? null,
  );
}

/**
 * The correct rate of free-text and drawing scenes from the teachers' marks: only marks
 * with a verdict made on the answer as it is now (a mark made before the answer changed is
 * shown to people but not counted); "partly" counted on its own.
 */
async function markedRates(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  filter: StatsFilter,
): Promise<Record<string, CorrectRate>> {
  const rows = await db().$queryRaw<
    { scene_id: string; grp: string | null; answered: number; correct: number; partly: number }[]
  >`
    select r.scene_id::text, coalesce(sd.counterbalance_group, '') as grp, grouping(coalesce(sd.counterbalance_group, '')) as g,
           count(*)::int as answered, count(*) filter (where m.verdict = 'correct')::int as correct, count(*) filter (where m.verdict = 'partly')::int as partly
    from responses r
    join activity_scenes s on s.id = r.scene_id and s.type in ('free_text', 'drawing')
    join activities a on a.id = r.activity_id and a.school_id = ${schoolId}::uuid
    join response_marks m on m.response_id = r.id and m.verdict is not null and m.answer_at >= r.updated_at
    join users u on u.id = r.user_id and u.role = 'student' and u.school_id = ${schoolId}::uuid
    ${seatInYearJoin("u.id", "a.academic_year")}
    where r.activity_id = ${activityId}::uuid
      and (${filter.group ?? null}::text is null or sd.counterbalance_group = ${filter.group ?? null}::text)
      and (${filter.class ?? null}::text is null or ${Prisma.raw(classKeySql("sd"))} = ${filter.class ?? null}::text)
      and (${filter.mode ?? null}::text is null or r.mode::text = ${filter.mode ?? null}::text)
    group by grouping sets ((r.scene_id), (r.scene_id, coalesce(sd.counterbalance_group, '')))`;
  const out: Record<string, CorrectRate> = {};
  for (const r of rows as ({ g: number } & (typeof rows)[number])[]) {
    const rate = (out[r.scene_id] ??= { marked: true, all: { answered: 0, correct: 0, partly: 0 }, groups: {} });
    const count = { answered: r.answered, correct: r.correct, partly: r.partly };
    if (r.g === 1) rate.all = count;
    else rate.groups[r.grp ?? ""] = count;
  }
  return out;
}
