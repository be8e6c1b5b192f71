import "server-only";
import { db } from "@/platform/db";
import { type Scene, sceneSchema } from "@/features/scenes/shared/schema";
import { sceneHasKey, verdictOf } from "@/features/scenes/shared/key";
import { isMarkedSceneType, type MarkVerdict } from "@/features/results/shared/mark-verdicts";

/**
 * Whether a person has finished an activity, as the learning records and the scores sent to a portal count it: every
 * scene of the activity answered. Then `correct` of the `keyed` scenes (those with a key) were answered right, of
 * `scenes` in all.
 */
export interface Completion {
  correct: number;
  keyed: number;
  scenes: number;
}

/**
 * A person's standing in an activity as the portal's score counts it (features/lti/README.md "Scores and members"):
 * a scene with a key is worth 1 (right) or 0 (wrong or unanswered); an answered scene a teacher marks (free text,
 * drawing) by its mark, MARK_WORTH, once marked, and `pending` while not. Other scenes count for nothing.
 */
export interface Standing {
  answered: number;
  scenes: number;
  given: number;
  maximum: number;
  pending: number;
}

/** What a teacher's mark is worth of a scene's one point. */
export const MARK_WORTH: Record<MarkVerdict, number> = { correct: 1, partly: 0.5, incorrect: 0 };

type SceneRow = { type: string; content: unknown; answer: unknown; mark: MarkVerdict | null };

/** The answer's verdict where the scene has a key (null: none). */
export function verdict(type: string, content: unknown, answer: unknown) {
  const scene = sceneSchema.safeParse({ type, content });
  return scene.success ? verdictOf(scene.data, answer) : null;
}

function keyed(type: string, content: unknown): boolean {
  const scene = sceneSchema.safeParse({ type, content });
  return scene.success && sceneHasKey(scene.data);
}

/** The activity's scenes with the person's answer (null: none) and its mark's verdict. */
function scenesOf(activityId: string, userId: string): Promise<SceneRow[]> {
  return db().$queryRawUnsafe<SceneRow[]>(
    `select sc.type::text, sc.content, r.answer, m.verdict::text as mark from activity_scenes sc
     left join responses r on r.scene_id = sc.id and r.user_id = $2::uuid
     left join response_marks m on m.response_id = r.id
     where sc.activity_id = $1::uuid`,
    activityId,
    userId,
  );
}

/** One person's work on one activity: whose completion is asked for. */
export interface Attempt {
  activityId: string;
  userId: string;
}

export const attemptKey = (a: Attempt) => `${a.activityId}/${a.userId}`;

interface SceneAnswer {
  activity_id: string;
  user_id: string;
  scene_id: string;
  type: string;
  content: unknown;
  answer: unknown;
}

/** Every scene of each (activity, person) with the person's answer (null: none), for all of them in one query. */
const SCENE_ANSWERS_SQL = `
  select q.activity_id::text, q.user_id::text, sc.id::text as scene_id, sc.type::text, sc.content, r.answer
  from (select distinct activity_id, user_id from unnest($1::uuid[], $2::uuid[]) as u(activity_id, user_id)) q
  join activity_scenes sc on sc.activity_id = q.activity_id
  left join responses r on r.scene_id = sc.id and r.user_id = q.user_id`;

function completionFrom(rows: SceneAnswer[], sceneOf: (row: SceneAnswer) => Scene | null): Completion | null {
  if (rows.length === 0 || rows.some((s) => s.answer === null)) return null;
  const verdicts = rows.map((s) => {
    const scene = sceneOf(s);
    return scene ? verdictOf(scene, s.answer) : null;
  });
  const keyed = verdicts.filter((v) => v !== null);
  return { correct: keyed.filter((v) => v === "correct").length, keyed: keyed.length, scenes: rows.length };
}

/**
 * The completions of `attempts` (by attemptKey; null while a scene is unanswered): every scene answered, and of the
 * scenes with a key how many right. Read by one query whatever their number, each scene's content parsed once.
 */
export async function completionsOf(attempts: Attempt[]): Promise<Map<string, Completion | null>> {
  const rows = await db().$queryRawUnsafe<SceneAnswer[]>(
    SCENE_ANSWERS_SQL,
    attempts.map((a) => a.activityId),
    attempts.map((a) => a.userId),
  );
  const grouped = new Map<string, SceneAnswer[]>(attempts.map((a) => [attemptKey(a), []]));
  for (const row of rows) grouped.get(attemptKey({ activityId: row.activity_id, userId: row.user_id }))?.push(row);
  const sceneOf = sceneParser();
  return new Map([...grouped].map(([key, of]) => [key, completionFrom(of, (row) => sceneOf(row.scene_id, row))]));
}

/** Scenes parsed once each however many rows carry them: the scene of id `id` (null: it does not parse). */
export function sceneParser(): (id: string, row: { type: string; content: unknown }) => Scene | null {
  const scenes = new Map<string, Scene | null>();
  return (id, row) => {
    if (!scenes.has(id)) {
      const parsed = sceneSchema.safeParse({ type: row.type, content: row.content });
      scenes.set(id, parsed.success ? parsed.data : null);
    }
    return scenes.get(id)!;
  };
}

/** One scene's part of a standing. */
function sceneStanding(s: SceneRow): Pick<Standing, "given" | "maximum" | "pending"> {
  if (keyed(s.type, s.content))
    return { given: verdict(s.type, s.content, s.answer) === "correct" ? 1 : 0, maximum: 1, pending: 0 };
  if (s.answer === null || !isMarkedSceneType(s.type)) return { given: 0, maximum: 0, pending: 0 };
  if (s.mark === null) return { given: 0, maximum: 0, pending: 1 };
  return { given: MARK_WORTH[s.mark], maximum: 1, pending: 0 };
}

/** The person's standing in the activity (answered or not). */
export async function standingOf(activityId: string, userId: string): Promise<Standing> {
  const scenes = await scenesOf(activityId, userId);
  const standing = { answered: 0, scenes: scenes.length, given: 0, maximum: 0, pending: 0 };
  for (const s of scenes) {
    const part = sceneStanding(s);
    standing.answered += s.answer === null ? 0 : 1;
    standing.given += part.given;
    standing.maximum += part.maximum;
    standing.pending += part.pending;
  }
  return standing;
}
