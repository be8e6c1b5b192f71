import "server-only";
import { db } from "@/platform/db";
import { correctIdsOf, sceneHasKey, verdictOf } from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { revealOwnAnswers } from "./answer-commands";
import { studentClassKey } from "./access";
import { liveStateForStudent } from "./state-queries";

import type { LiveFeedback } from "../shared/live-feedback";

/**
 * The running live session a student follows in one of their school's active guide-mode activities (their class's,
 * or the whole school's), as their stream shows it; null otherwise.
 */
export async function followedSession(student: { id: string; schoolId: string }, activityId: string) {
  const activity = await db().activity.findFirst({
    where: { id: activityId, schoolId: student.schoolId, status: "active", mode: "guide", actorType: "student" },
    select: { id: true },
  });
  if (!activity) return null;
  const state = await liveStateForStudent(activityId, await studentClassKey(student.id));
  return state?.status === "running" ? state : null;
}

/**
 * A student's own verdict and the key of the live session's current scene, once the teacher has shown it
 * (「正解を見せる」) to the session the student follows: null before that, for another scene, another class's
 * session, another school's activity. The key is read here and leaves for this one student only; their answer
 * becomes final as on a solo result page (answer-commands.ts `revealOwnAnswers`).
 */
export async function liveFeedbackFor(
  student: { id: string; schoolId: string },
  activityId: string,
  sceneId: string,
): Promise<LiveFeedback | null> {
  const state = await followedSession(student, activityId);
  if (!state || state.sceneId !== sceneId || !state.revealed) return null;
  const stored = await db().activityScene.findFirst({
    where: { id: sceneId, activityId },
    select: { id: true, type: true, content: true, version: true },
  });
  const parsed = stored ? sceneSchema.safeParse({ type: stored.type, content: stored.content }) : null;
  if (!stored || !parsed?.success || !sceneHasKey(parsed.data)) return null;
  const [own] = await revealOwnAnswers(student.id, activityId, [{ id: stored.id, version: stored.version }]);
  return { sceneId, correct: correctIdsOf(parsed.data), verdict: own ? verdictOf(parsed.data, own.answer) : null };
}
