import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { SchoolCtx } from "@/features/people/server/school-action";
import { withFurigana } from "@/features/activities/server/furigana-suggest";
import { errorField, log } from "@/platform/ops/log";
import type { MarkInput } from "../shared/mark-schema";
import { isMarkedSceneType, type StaffMark } from "../shared/mark-verdicts";
import { type MarkWritten, publishMark } from "./mark-events";

/**
 * Marks and/or comments one student's response of the school's activity (last write wins;
 * the page shows who marked when). A response of another school, another activity or none
 * is NOT_FOUND; a verdict on a scene that is not marked by teachers is VALIDATION. No verdict
 * and no comment clears the mark. A save over another teacher's mark that the form had not
 * shown (`seen`) says whose it replaced. Audited without the comment's text. A changed verdict is published
 * (mark-events.ts) once committed.
 */
export async function markResponse(ctx: SchoolCtx, input: MarkInput): Promise<ActionResult<StaffMark | null>> {
  const commentFurigana = input.comment ? await furiganaOf(ctx, input.comment) : null;
  let written: MarkWritten | undefined;
  const result = await db().$transaction(async (tx) => {
    const response = await tx.response.findFirst({
      where: {
        id: input.responseId,
        activityId: input.activityId,
        activity: { schoolId: ctx.schoolId },
        user: { schoolId: ctx.schoolId, role: "student" },
      },
      select: {
        id: true,
        userId: true,
        updatedAt: true,
        scene: { select: { type: true } },
        mark: { select: { verdict: true, updatedAt: true, markedById: true, markedBy: { select: { name: true } } } },
      },
    });
    if (!response) return fail("NOT_FOUND");
    if (input.verdict && !isMarkedSceneType(response.scene.type))
      return fail("VALIDATION", { verdict: ["not marked by teachers"] });
    const before = response.mark;
    const unseen =
      before &&
      before.markedById !== ctx.actorId &&
      input.seen !== undefined &&
      before.updatedAt.toISOString() !== input.seen;
    const replaced = unseen ? { by: before.markedBy?.name ?? null, at: before.updatedAt.toISOString() } : undefined;
    const comment = input.comment || null;
    const cleared = !input.verdict && !comment;
    // the verdict changed: a score counting it changes (a comment alone changes none)
    const rescored = (before?.verdict ?? null) !== (input.verdict ?? null);
    await audit(
      {
        action: "response.mark",
        actorId: ctx.actorId,
        targetType: "response",
        targetId: response.id,
        schoolId: ctx.schoolId,
        meta: { verdict: input.verdict, commented: comment !== null, cleared },
      },
      tx,
    );
    if (cleared) {
      await tx.responseMark.deleteMany({ where: { responseId: response.id } });
      if (rescored)
        written = { activityId: input.activityId, userId: response.userId, markedAt: new Date().toISOString() };
      return ok(null);
    }
    const data = {
      verdict: input.verdict,
      comment,
      commentFurigana,
      markedById: ctx.actorId,
      answerAt: response.updatedAt,
    };
    const mark = await tx.responseMark.upsert({
      where: { responseId: response.id },
      create: { responseId: response.id, ...data },
      update: data,
      select: { verdict: true, comment: true, updatedAt: true, markedBy: { select: { name: true } } },
    });
    if (rescored)
      written = { activityId: input.activityId, userId: response.userId, markedAt: mark.updatedAt.toISOString() };
    return ok({
      verdict: mark.verdict,
      comment: mark.comment,
      markedBy: mark.markedBy?.name ?? null,
      markedAt: mark.updatedAt.toISOString(),
      stale: false,
      ...(replaced ? { replaced } : {}),
    });
  });
  if (written) publishMark(written);
  return result;
}

/**
 * The comment as a student reads it: automatic furigana from the analyser the scene editor uses (a furigana student
 * sees the readings over the kanji, a kana student the readings alone); null when it adds nothing, or when the
 * analyser fails (the student then reads the comment as written: a mark is never lost to the dictionary).
 */
async function furiganaOf(ctx: SchoolCtx, comment: string): Promise<string | null> {
  try {
    const read = await withFurigana(ctx.schoolId, comment);
    return read === comment ? null : read;
  } catch (error) {
    log().warn({ event: "marks.furigana.failed", ...errorField(error) }, "comment furigana failed");
    return null;
  }
}
