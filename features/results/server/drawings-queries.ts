import "server-only";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";

/**
 * The drawings of `userIds` (students of the school) to one drawing scene of
 * the school's activity, by user id: only the part of the stats page's
 * gallery shown, never a whole class's strokes at once unless asked.
 */
export async function drawingAnswers(
  schoolId: AuthorizedSchoolId,
  activityId: string,
  sceneId: string,
  userIds: string[],
): Promise<Map<string, unknown>> {
  if (userIds.length === 0) return new Map();
  const rows = await db().response.findMany({
    where: {
      activityId,
      sceneId,
      userId: { in: userIds },
      activity: { schoolId },
      user: { schoolId, role: "student" },
      scene: { type: "drawing" },
    },
    select: { userId: true, answer: true },
  });
  return new Map(rows.map((r) => [r.userId, r.answer]));
}
