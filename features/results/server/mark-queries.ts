import "server-only";
import { z } from "zod";
import { db } from "@/platform/db";
import { Prisma } from "@/platform/db/generated/prisma/client";
import type { OwnMark, StaffMark } from "../shared/mark-verdicts";

/** The select of a response's mark for staff (features/results/server/portfolio-queries.ts `studentResponses`). */
export const staffMarkSelect = {
  verdict: true,
  comment: true,
  answerAt: true,
  updatedAt: true,
  markedBy: { select: { name: true } },
} as const;

/** A stored mark as staff see it, given its response's last change. */
export function toStaffMark(
  mark: {
    verdict: StaffMark["verdict"];
    comment: string | null;
    answerAt: Date;
    updatedAt: Date;
    markedBy: { name: string | null } | null;
  } | null,
  answeredAt: Date,
): StaffMark | null {
  if (!mark) return null;
  return {
    verdict: mark.verdict,
    comment: mark.comment,
    markedBy: mark.markedBy?.name ?? null,
    markedAt: mark.updatedAt.toISOString(),
    stale: answeredAt > mark.answerAt,
  };
}

/**
 * The marks on a student's own answers to one activity of their school, by scene id: the
 * comments always (with their automatic furigana), the verdicts only when `verdicts` (the activity's
 * feedback timing allows them; the result page decides). Scenes without a mark are left out.
 */
export async function ownMarks(
  who: { id: string; schoolId: string },
  activityId: string,
  show: { verdicts: boolean },
): Promise<Record<string, OwnMark>> {
  if (!z.uuid().safeParse(activityId).success) return {};
  const rows = await db().responseMark.findMany({
    where: {
      response: { activityId, userId: who.id, activity: { schoolId: who.schoolId }, user: { schoolId: who.schoolId } },
    },
    select: {
      verdict: true,
      comment: true,
      commentFurigana: true,
      answerAt: true,
      response: { select: { sceneId: true, updatedAt: true } },
    },
  });
  const out: Record<string, OwnMark> = {};
  for (const m of rows) {
    const verdict = show.verdicts ? m.verdict : null;
    // the comment as the student reads it: with its automatic furigana (the original stays the staff's)
    const comment = m.commentFurigana ?? m.comment;
    if (verdict || comment) out[m.response.sceneId] = { verdict, comment, stale: m.response.updatedAt > m.answerAt };
  }
  return out;
}

/** A response's mark as two result columns, `mark` (the verdict) and `comment`, for queries over `responses r`. */
export const markColumnsSql = Prisma.sql`(select m.verdict::text from response_marks m where m.response_id = r.id) as mark, (select m.comment from response_marks m where m.response_id = r.id) as comment`;

/** A mark as statistics and CSVs carry it (nothing when the answer is not marked). */
export type MarkCells = { mark: string | null; comment: string | null };

/** The mark of one student's response to an activity of the school, as staff see it (null: none); null when no such response. */
export async function staffMarkOf(
  schoolId: string,
  activityId: string,
  responseId: string,
): Promise<{ mark: StaffMark | null } | null> {
  const row = await db().response.findFirst({
    where: {
      id: responseId,
      activityId,
      activity: { schoolId },
      user: { schoolId, role: "student" },
    },
    select: { updatedAt: true, mark: { select: staffMarkSelect } },
  });
  return row ? { mark: toStaffMark(row.mark, row.updatedAt) } : null;
}
