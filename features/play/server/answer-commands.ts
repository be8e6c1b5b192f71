import "server-only";
import { db } from "@/platform/db";

/**
 * Records that the verdicts and key of these scenes are being shown to their respondent (their
 * result page) and returns the answers they are shown for: from the first reveal on, an answer is
 * final (the save statement refuses a change, features/play/shared/answer-writer-sql.ts). One statement: the
 * answers returned are the ones marked revealed, and a save racing it is either seen here or
 * refused there. Only answers to the scene's current version are judged, so only they are marked.
 * Raw SQL: `updated_at` (the answer's time, which teachers' marks compare with) stays as it is.
 */
export async function revealOwnAnswers(
  userId: string,
  activityId: string,
  scenes: { id: string; version: number }[],
): Promise<{ sceneId: string; answer: unknown }[]> {
  if (scenes.length === 0) return [];
  return db().$queryRawUnsafe<{ sceneId: string; answer: unknown }[]>(
    `update responses r set revealed_at = coalesce(r.revealed_at, now())
     from unnest($3::uuid[], $4::int[]) as k(scene_id, version)
     where r.user_id = $1::uuid and r.activity_id = $2::uuid and r.scene_id = k.scene_id and r.scene_version = k.version
     returning r.scene_id::text as "sceneId", r.answer`,
    userId,
    activityId,
    scenes.map((s) => s.id),
    scenes.map((s) => s.version),
  );
}
