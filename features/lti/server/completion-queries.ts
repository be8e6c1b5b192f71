import "server-only";
import { db } from "@/platform/db";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { verdictOf } from "@/features/scenes/shared/key";

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

/** The answer's verdict where the scene has a key (null: none). */
export function verdict(type: string, content: unknown, answer: unknown) {
  const scene = sceneSchema.safeParse({ type, content });
  return scene.success ? verdictOf(scene.data, answer) : null;
}

/** The person's completion of the activity; null while a scene is unanswered. */
export async function completionOf(activityId: string, userId: string): Promise<Completion | null> {
  const scenes = await db().$queryRawUnsafe<{ type: string; content: unknown; answer: unknown }[]>(
    `select sc.type::text, sc.content, r.answer from activity_scenes sc
     left join responses r on r.scene_id = sc.id and r.user_id = $2::uuid
     where sc.activity_id = $1::uuid`,
    activityId,
    userId,
  );
  if (scenes.length === 0 || scenes.some((s) => s.answer === null)) return null;
  const verdicts = scenes.map((s) => verdict(s.type, s.content, s.answer)).filter((v) => v !== null);
  return { correct: verdicts.filter((v) => v === "correct").length, keyed: verdicts.length, scenes: scenes.length };
}
