import "server-only";
import { db } from "@/platform/db";
import { Prisma } from "@/platform/db/generated/prisma/client";
import { type MarkCells, markColumnsSql } from "@/features/results/server/mark-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { type Scene, sceneSchema } from "@/features/scenes/shared/schema";
import type { Seat } from "@/features/people/shared/seat";
import { seatInYearJoin } from "@/features/people/server/year-seat";
import type { ShownName } from "@/platform/names/person-name";
import { type CorrectRate, correctRates } from "./correct-rate";
import type { StatsFilter } from "../shared/schema";

/** A student as staff see them in results: full name (never the nickname) with its reading, and the seat. */
export interface Person {
  id: string;
  name: ShownName;
  seat: Seat;
}

type PersonRow = {
  name: string | null;
  name_kana: string | null;
  nickname: string | null;
  grade: number | null;
  class_name: string | null;
  number: number | null;
};

/** The full name with its reading (the nickname only when there is no name), and the seat. */
function personOf(id: string, r: PersonRow): Person {
  const name = r.name?.trim() || null;
  return {
    id,
    name: { base: name ?? r.nickname?.trim() ?? "", reading: name ? r.name_kana?.trim() || null : null },
    seat: { grade: r.grade, className: r.class_name, number: r.number },
  };
}

export interface SceneStats {
  id: string;
  position: number;
  scene: Scene;
  /** Respondents who answered this scene (after the filters). */
  answered: number;
  /** Counts per option id (choice scenes; multiple choice counts every chosen option). */
  choices: Record<string, number>;
  /** Scale: counts per value 1–5, and the median. */
  values: Record<string, number>;
  median: number | null;
  /** Two-step: counts per first × second. */
  cross: Record<string, Record<string, number>>;
  /** Free text (and nothing else), with who wrote it. */
  texts: ({ text: string; who: Person } & Partial<MarkCells>)[];
  /** Drawing scenes: who drew something (at least one stroke), with the stroke count; the pictures load per page (features/results/server/drawings.ts). */
  drawings: ({ strokes: number; who: Person } & Partial<MarkCells>)[];
  /** Scenes with a key: how many answered correctly, in all and per counterbalance group; null otherwise. */
  correct: CorrectRate | null;
  /** The students the activity is for (after the group and class filters) without an answer here; empty for information scenes. */
  notAnswered: Person[];
  /** The content version these numbers count (the scene's current one, or an earlier one in `earlier`). */
  version: number;
  /** Earlier versions that have answers, newest first, each counted with its own content (docs/adr/0059-scene-versions.md). */
  earlier: SceneStats[];
}

export interface ActivityStats {
  overview: { assigned: number; started: number; finished: number; guide: number; self: number };
  /** Who started, in class order, with how many questions they answered. */
  respondents: (Person & { answered: number })[];
  /** Questions (scenes other than info). */
  questions: number;
  scenes: SceneStats[];
  groups: string[];
  classes: string[];
  /** The activity's academic year (年度). */
  academicYear: number;
}

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
      and (${className}::text is null or sd.class_name = ${className}::text)
      and (${mode}::text is null or r.mode::text = ${mode}::text)`;
}

function notAnswered(students: Person[], missing: { scene_id: string; user_id: string }[], sceneId: string): Person[] {
  const ids = new Set(missing.flatMap((m) => (m.scene_id === sceneId ? [m.user_id] : [])));
  return ids.size === 0 ? [] : students.filter((s) => ids.has(s.id));
}

/** The medians of a 1–5 distribution (no loop over rows: five buckets). */
export function medianOf(values: Record<string, number>): number | null {
  const total = Object.values(values).reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const at = (k: number) => {
    let seen = 0;
    for (let v = 1; v <= 5; v++) {
      seen += values[String(v)] ?? 0;
      if (seen > k) return v;
    }
    return 5;
  };
  return total % 2 ? at((total - 1) / 2) : (at(total / 2 - 1) + at(total / 2)) / 2;
}

/** The activity of the school with its scenes in order, each with its earlier versions (newest first). */
function loadStatsActivity(schoolId: AuthorizedSchoolId, activityId: string) {
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

type StatsActivity = NonNullable<Awaited<ReturnType<typeof loadStatsActivity>>>;
type StatsRows = Awaited<ReturnType<typeof loadStatsRows>>;

/** Everything the statistics count, read at once: the distributions, the answers and who gave them, the students in scope. */
async function loadStatsRows(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  filter: StatsFilter,
  academicYear: number,
) {
  const group = filter.group ?? null;
  const className = filter.class ?? null;
  const scope = respondedIn(schoolId, activityId, filter);
  const [rates, dims, totals, texts, drawn, people, assigned, groups, classes, missing] = await Promise.all([
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
      select scene_id, v, 'cross', answer->>'first', answer->>'second', count(*)::int from r where answer ? 'first' group by 1, 2, 4, 5`,
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
        and (${className}::text is null or sd.class_name = ${className}::text)
      order by sd.grade, sd.class_name, sd.number, u.name_kana`,
    db().studentDetail.findMany({
      where: { user: { schoolId }, counterbalanceGroup: { not: null } },
      distinct: ["counterbalanceGroup"],
      select: { counterbalanceGroup: true },
    }),
    db().studentDetail.findMany({
      where: { user: { schoolId } },
      distinct: ["className"],
      orderBy: { className: "asc" },
      select: { className: true },
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
        and (${className}::text is null or sd.class_name = ${className}::text)
        and not exists (select 1 from responses r where r.scene_id = s.id and r.user_id = u.id)`,
  ]);
  return { rates, dims, totals, texts, drawn, people, assigned, groups, classes, missing };
}

/** A version's counts per option, per scale value and per two-step cell. */
function distributionsOf(dims: StatsRows["dims"], ours: (x: { scene_id: string; v: number }) => boolean) {
  const choices: Record<string, number> = {};
  const values: Record<string, number> = {};
  const cross: Record<string, Record<string, number>> = {};
  for (const d of dims) {
    if (!ours(d) || d.k === null) continue;
    if (d.dim === "choice") choices[d.k] = (choices[d.k] ?? 0) + d.n;
    else if (d.dim === "value") values[d.k] = (values[d.k] ?? 0) + d.n;
    else if (d.dim === "cross" && d.k2 !== null) (cross[d.k] ??= {})[d.k2] = d.n;
  }
  return { choices, values, cross };
}

/** The numbers of one version of a scene, read with that version's content. */
function versionStats(
  { rates, dims, totals, texts, drawn, missing }: StatsRows,
  students: Person[],
  stored: StatsActivity["scenes"][number],
  content: unknown,
  v: number,
  current: boolean,
): SceneStats | null {
  const parsed = sceneSchema.safeParse({ type: stored.type, content });
  if (!parsed.success) return null;
  const ours = (x: { scene_id: string; v: number }) => x.scene_id === stored.id && x.v === v;
  const { choices, values, cross } = distributionsOf(dims, ours);
  return {
    id: stored.id,
    position: stored.position,
    scene: parsed.data,
    answered: totals.find(ours)?.n ?? 0,
    choices,
    values,
    median: parsed.data.type === "scale" ? medianOf(values) : null,
    cross,
    correct: current ? (rates[stored.id] ?? null) : null,
    texts: texts.filter(ours).map((x) => ({ text: x.text, who: personOf(x.user_id, x), ...markedOnly(x) })),
    drawings: drawn.filter(ours).map((x) => ({ strokes: x.strokes, who: personOf(x.user_id, x), ...markedOnly(x) })),
    notAnswered: parsed.data.type === "info" || !current ? [] : notAnswered(students, missing, stored.id),
    version: v,
    earlier: [],
  };
}

/** Each scene's current version, with its earlier versions that have answers. */
function scenesStats(activity: StatsActivity, rows: StatsRows, students: Person[]): SceneStats[] {
  const scenes: SceneStats[] = [];
  for (const stored of activity.scenes) {
    const now = versionStats(rows, students, stored, stored.content, stored.version, true);
    if (!now) continue;
    now.earlier = stored.versions.flatMap((old) => {
      const then = versionStats(rows, students, stored, old.content, old.version, false);
      return then && then.answered > 0 ? [then] : [];
    });
    scenes.push(now);
  }
  return scenes;
}

/**
 * The statistics of one activity of the school, aggregated in SQL (one pass
 * for the distributions, one for the overview): fast with 1,000 students ×
 * 20 scenes. Filters: counterbalance group and class (of the student), mode
 * (of the response). The CSV export uses this same object, so screen and file agree.
 */
export async function activityStats(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  filter: StatsFilter,
): Promise<ActivityStats | null> {
  const activity = await loadStatsActivity(schoolId, activityId);
  if (!activity) return null;
  const rows = await loadStatsRows(schoolId, activityId, filter, activity.academicYear);
  const { people, assigned, groups, classes } = rows;
  const students = assigned.map((u) => personOf(u.id, u));
  const questions = activity.scenes.filter((s) => s.type !== "info").length;
  const scenes = scenesStats(activity, rows, students);
  return {
    overview: {
      assigned: students.length,
      started: people.length,
      finished: people.filter((p) => p.answered >= questions && questions > 0).length,
      guide: people.filter((p) => p.guide).length,
      self: people.filter((p) => p.self).length,
    },
    respondents: people.map((p) => ({ ...personOf(p.user_id, p), answered: p.answered })),
    academicYear: activity.academicYear,
    questions,
    scenes,
    groups: groups.map((g) => g.counterbalanceGroup!).sort(),
    classes: classes.flatMap((c) => (c.className === null ? [] : [c.className])),
  };
}

/** A teacher's mark and comment (features/results), only on answers that have one. */
const markedOnly = (x: MarkCells): Partial<MarkCells> =>
  x.mark || x.comment ? { mark: x.mark, comment: x.comment } : {};

/** The reasons behind one cell of a two-step cross-table (first × second), with who gave them. */
export async function cellReasons(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  sceneId: string,
  first: string,
  second: string,
  filter: StatsFilter,
) {
  const rows = await db().$queryRaw<({ reason: string; user_id: string } & PersonRow)[]>`
    select r.answer->>'reason' as reason, u.id as user_id, u.name, u.name_kana, u.nickname, sd.grade, sd.class_name, sd.number ${respondedIn(schoolId, activityId, filter)}
      and r.scene_id = ${sceneId}::uuid and r.scene_version = s.version and r.answer->>'first' = ${first} and r.answer->>'second' = ${second}
    order by sd.grade, sd.class_name, sd.number`;
  return rows.map((r) => ({ reason: r.reason, who: personOf(r.user_id, r) }));
}
