import "server-only";
import type { MarkCells } from "@/features/results/server/mark-queries";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { type Scene, sceneSchema } from "@/features/scenes/shared/schema";
import type { Seat } from "@/features/people/shared/seat";
import type { ShownName } from "@/platform/names/person-name";
import type { CorrectRate } from "./correct-rate-queries";
import type { Counts } from "@/features/scenes/shared/typed-results";
import { typedStats } from "./typed-stats";
import {
  loadCellReasons,
  loadStatsActivity,
  loadStatsRows,
  type PersonRow,
  type StatsActivity,
  type StatsRows,
} from "./stats-queries";
import type { StatsFilter } from "../shared/schema";
import { sortClasses, type SchoolClass } from "@/features/people/shared/class-key";

/** A student as staff see them in results: full name (never the nickname) with its reading, and the seat. */
export interface Person {
  id: string;
  name: ShownName;
  seat: Seat;
}

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
  /** Two-step: counts per first × second; ordering: per item × position (from 0); matching: per left × right item. */
  cross: Record<string, Record<string, number>>;
  /** Free text (and nothing else), with who wrote it. */
  texts: ({ text: string; who: Person } & Partial<MarkCells>)[];
  /** Drawing scenes: who drew something (at least one stroke), with the stroke count; the pictures load per page (features/results/server/drawings-queries.ts). */
  drawings: ({ strokes: number; who: Person } & Partial<MarkCells>)[];
  /** Fill in the blanks and number: the counts of features/scenes/shared/typed-results.ts (empty for other types). */
  typed: Counts;
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
  /** The school's classes, in school order: the class filter's choices. */
  classes: SchoolClass[];
  /** The activity's academic year (年度). */
  academicYear: number;
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
  { rates, dims, totals, texts, drawn, missing, typed }: StatsRows,
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
  const answerTyped = ["fill_blanks", "number", "word_cloud"].includes(parsed.data.type);
  const own = answerTyped ? typedStats(parsed.data, typed.filter(ours)) : { counts: {}, correct: null };
  return {
    id: stored.id,
    position: stored.position,
    scene: parsed.data,
    answered: totals.find(ours)?.n ?? 0,
    choices,
    values,
    median: parsed.data.type === "scale" ? medianOf(values) : null,
    cross,
    correct: current ? (rates[stored.id] ?? own.correct) : null,
    typed: own.counts,
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
    classes: sortClasses(
      classes.flatMap((c) =>
        c.grade === null || c.className === null ? [] : [{ grade: c.grade, className: c.className }],
      ),
    ),
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
  const rows = await loadCellReasons(schoolId, activityId, sceneId, first, second, filter);
  return rows.map((r) => ({ reason: r.reason, who: personOf(r.user_id, r) }));
}
