import "server-only";
import { db } from "@/platform/db";
import { Prisma } from "@/platform/db/generated/prisma/client";
import { type MarkCells, markColumnsSql } from "@/features/results/server/mark-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { seatInYearJoin } from "@/features/people/server/year-seat";
import { classKeySql } from "@/features/people/shared/class-key";
import { correctRates } from "./correct-rate-queries";

/** The seat's class key, compared with the class filter (features/people/shared/class-key.ts). */
const SD_CLASS_KEY = Prisma.raw(classKeySql("sd"));
import type { StatsFilter } from "../shared/schema";

/** A student's name and seat columns as the statistics read them. */
export type PersonRow = {
  name: string | null;
  name_kana: string | null;
  nickname: string | null;
  grade: number | null;
  class_name: string | null;
  number: number | null;
};

/**
 * `from … where …` of the responses the statistics count: students of the
 * school answering the activity, narrowed by group (the student's), class (the
 * student's 組 in the activity's year) and mode (the response's); `sd` is the
 * seat of that year. Callers append `and …` conditions.
 */
function respondedIn(schoolId: AuthorizedSchoolId, activityId: string, filter: StatsFilter) {
  const group = filter.group ?? null;
  const className = filter.class ?? null;
  const mode = filter.mode ?? null;
  return Prisma.sql`
    from responses r
    -- a retired scene's answers (docs/adr/0059-scene-versions.md) stay in the research CSV, not in the statistics
    join activity_scenes s on s.id = r.scene_id and s.activity_id is not null
    join users u on u.id = r.user_id and u.role = 'student' and u.school_id = ${schoolId}::uuid
    join activities a on a.id = r.activity_id
    -- the seat of the activity's year: a past year's answers listed and filtered by that year's 組
    ${seatInYearJoin("u.id", "a.academic_year")}
    where r.activity_id = ${activityId}::uuid
      and (${group}::text is null or sd.counterbalance_group = ${group}::text)
      and (${className}::text is null or ${SD_CLASS_KEY} = ${className}::text)
      and (${mode}::text is null or r.mode::text = ${mode}::text)`;
}

/** A fill-in-the-blanks or number answer with its scene version and the student's counterbalance group ("" for none). */
export type TypedAnswerRow = { scene_id: string; v: number; answer: unknown; grp: string };

/** The activity of the school with its scenes in order, each with its earlier versions (newest first). */
export function loadStatsActivity(schoolId: AuthorizedSchoolId, activityId: string) {
  return db().activity.findFirst({
    where: { id: activityId, schoolId },
    select: {
      id: true,
      academicYear: true,
      scenes: {
        orderBy: { position: "asc" },
        select: {
          id: true,
          type: true,
          content: true,
          position: true,
          version: true,
          versions: { orderBy: { version: "desc" }, select: { version: true, content: true } },
        },
      },
    },
  });
}

export type StatsActivity = NonNullable<Awaited<ReturnType<typeof loadStatsActivity>>>;
export type StatsRows = Awaited<ReturnType<typeof loadStatsRows>>;

/** Everything the statistics count, read at once: the distributions, the answers and who gave them, the students in scope. */
export async function loadStatsRows(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  filter: StatsFilter,
  academicYear: number,
) {
  const group = filter.group ?? null;
  const className = filter.class ?? null;
  const scope = respondedIn(schoolId, activityId, filter);
  const [rates, dims, totals, texts, drawn, people, assigned, groups, classes, missing, typed] = await Promise.all([
    correctRates(schoolId, activityId, filter),
    db().$queryRaw<{ scene_id: string; v: number; dim: string; k: string | null; k2: string | null; n: number }[]>`
      with r as (select r.scene_id, r.scene_version as v, r.answer ${scope})
      select scene_id, v, 'choice' as dim, answer->>'choice' as k, null::text as k2, count(*)::int as n from r where answer ? 'choice' group by 1, 2, 4
      union all
      select scene_id, v, 'choice', c, null, count(*)::int from r
        cross join lateral jsonb_array_elements_text(case when jsonb_typeof(answer->'choices') = 'array' then answer->'choices' else '[]'::jsonb end) c
        group by 1, 2, 4
      union all
      select scene_id, v, 'value', answer->>'value', null, count(*)::int from r where answer ? 'value' group by 1, 2, 4
      union all
      select scene_id, v, 'cross', answer->>'first', answer->>'second', count(*)::int from r where answer ? 'first' group by 1, 2, 4, 5
      union all
      -- an ordering: item × position (from 0); a matching: left item × right item
      select scene_id, v, 'cross', o.id, (o.at - 1)::text, count(*)::int from r
        cross join lateral jsonb_array_elements_text(case when jsonb_typeof(answer->'order') = 'array' then answer->'order' else '[]'::jsonb end) with ordinality o(id, at)
        group by 1, 2, 4, 5
      union all
      select scene_id, v, 'cross', p.key, p.value, count(*)::int from r
        cross join lateral jsonb_each_text(case when jsonb_typeof(answer->'pairs') = 'object' then answer->'pairs' else '{}'::jsonb end) p
        group by 1, 2, 4, 5`,
    db().$queryRaw<{ scene_id: string; v: number; n: number }[]>`
      select r.scene_id, r.scene_version as v, count(*)::int as n ${scope} group by 1, 2`,
    db().$queryRaw<({ scene_id: string; v: number; text: string; user_id: string } & PersonRow & MarkCells)[]>`
      select r.scene_id, r.scene_version as v, r.answer->>'text' as text, ${markColumnsSql}, u.id as user_id, u.name, u.name_kana, u.nickname, sd.grade, sd.class_name, sd.number ${scope}
        and r.answer ? 'text' and btrim(r.answer->>'text') <> ''
      order by sd.grade, sd.class_name, sd.number`,
    db().$queryRaw<({ scene_id: string; v: number; strokes: number; user_id: string } & PersonRow & MarkCells)[]>`
      select r.scene_id, r.scene_version as v, jsonb_array_length(r.answer->'strokes')::int as strokes, ${markColumnsSql}, u.id as user_id, u.name, u.name_kana, u.nickname, sd.grade, sd.class_name, sd.number ${scope}
        and s.type = 'drawing' and jsonb_typeof(r.answer->'strokes') = 'array' and jsonb_array_length(r.answer->'strokes') > 0
      order by sd.grade, sd.class_name, sd.number`,
    db().$queryRaw<({ user_id: string; answered: number; guide: boolean; self: boolean } & PersonRow)[]>`
      select r.user_id, min(u.name) as name, min(u.name_kana) as name_kana, min(u.nickname) as nickname, min(sd.grade) as grade, min(sd.class_name) as class_name, min(sd.number) as number,
             count(distinct r.scene_id) filter (where s.type <> 'info')::int as answered,
             bool_or(r.mode = 'guide') as guide, bool_or(r.mode = 'self') as self
      ${scope}
      group by r.user_id
      order by min(sd.grade), min(sd.class_name), min(sd.number)`,
    // the students at school in scope, at their seat of the activity's year
    db().$queryRaw<({ id: string } & PersonRow)[]>`
      select u.id::text as id, u.name, u.name_kana, u.nickname, sd.grade, sd.class_name, sd.number
      from users u ${seatInYearJoin("u.id", academicYear)}
      where u.school_id = ${schoolId}::uuid and u.role = 'student' and not u.disabled
        and (${group}::text is null or sd.counterbalance_group = ${group}::text)
        and (${className}::text is null or ${SD_CLASS_KEY} = ${className}::text)
      order by sd.grade, sd.class_name, sd.number, u.name_kana`,
    db().studentDetail.findMany({
      where: { user: { schoolId }, counterbalanceGroup: { not: null } },
      distinct: ["counterbalanceGroup"],
      select: { counterbalanceGroup: true },
    }),
    db().studentDetail.findMany({
      where: { user: { schoolId }, grade: { not: null }, className: { not: null } },
      distinct: ["grade", "className"],
      select: { grade: true, className: true },
    }),
    // the students in scope without an answer to a question scene, in any mode ("not answered yet" means not at all);
    // an anti-join on the one-answer-per-student-and-scene index: as many rows as answers missing
    db().$queryRaw<{ scene_id: string; user_id: string }[]>`
      select s.id as scene_id, u.id as user_id
      from activity_scenes s
      join users u on u.school_id = ${schoolId}::uuid and u.role = 'student' and not u.disabled
      ${seatInYearJoin("u.id", academicYear)}
      where s.activity_id = ${activityId}::uuid and s.type <> 'info'
        and (${group}::text is null or sd.counterbalance_group = ${group}::text)
        and (${className}::text is null or ${SD_CLASS_KEY} = ${className}::text)
        and not exists (select 1 from responses r where r.scene_id = s.id and r.user_id = u.id)`,
    // fill-in-the-blanks, number and word cloud answers, marked and counted in code (features/results/server/typed-stats.ts)
    db().$queryRaw<TypedAnswerRow[]>`
      select r.scene_id, r.scene_version as v, r.answer, coalesce(sd.counterbalance_group, '') as grp ${scope}
        and s.type in ('fill_blanks', 'number', 'word_cloud')`,
  ]);
  return { rates, dims, totals, texts, drawn, people, assigned, groups, classes, missing, typed };
}

/** The reasons behind one cell of a two-step cross-table (first × second), with who gave them (in class order). */
export function loadCellReasons(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  sceneId: string,
  first: string,
  second: string,
  filter: StatsFilter,
) {
  return db().$queryRaw<({ reason: string; user_id: string } & PersonRow)[]>`
    select r.answer->>'reason' as reason, u.id as user_id, u.name, u.name_kana, u.nickname, sd.grade, sd.class_name, sd.number ${respondedIn(schoolId, activityId, filter)}
      and r.scene_id = ${sceneId}::uuid and r.scene_version = s.version and r.answer->>'first' = ${first} and r.answer->>'second' = ${second}
    order by sd.grade, sd.class_name, sd.number`;
}
