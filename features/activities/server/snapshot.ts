import "server-only";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { type ActivityFile, activityFileSchema, toActivityFile } from "../shared/file-format";

/**
 * A school's activity as it stands, in the activity file's shape (scenes in order, group orders,
 * feedback timing, 学習指導要領コード; no ids, no answers), read inside `tx`: what a duplicate is made from and what
 * the academy library keeps. Another school's activity is NOT_FOUND; stored content the file's
 * schema no longer accepts is VALIDATION on `activityId`. `title` is the activity's own,
 * `academyId` its school's.
 */
export async function activitySnapshotTx(
  tx: Prisma.TransactionClient,
  schoolId: AuthorizedSchoolId,
  activityId: string,
): Promise<ActionResult<{ file: ActivityFile; title: string; academyId: string }>> {
  const activity = await tx.activity.findFirst({
    where: { id: activityId, schoolId },
    select: {
      title: true,
      actorType: true,
      feedback: true,
      curriculumCode: true,
      school: { select: { academyId: true } },
      scenes: { orderBy: { position: "asc" }, select: { id: true, type: true, content: true, curriculumCode: true } },
      sceneOrders: { orderBy: { group: "asc" }, select: { group: true, sceneIds: true } },
    },
  });
  if (!activity) return fail("NOT_FOUND");
  const file = activityFileSchema.safeParse(toActivityFile(activity));
  if (!file.success) return fail("VALIDATION", { activityId: ["content"] });
  return ok({ file: file.data, title: activity.title, academyId: activity.school.academyId });
}
