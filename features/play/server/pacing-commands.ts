import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { SchoolCtx } from "@/features/people/server/school-action";
import { publish } from "../../../platform/notify/bus";

/**
 * Pacing in self mode (docs/adr/0063-pacing-in-self-mode.md): students reach only the first
 * `open` scenes of their order, or every scene (null). The students' pages follow through their
 * school's "modes" notification (their home and solo page re-render). Not the editor's version: it
 * changes no content.
 */
export async function setPacing(
  ctx: SchoolCtx,
  activityId: string,
  open: number | null,
): Promise<ActionResult<{ open: number | null }>> {
  return db().$transaction(async (tx) => {
    const activity = await tx.activity.findFirst({
      where: { id: activityId, schoolId: ctx.schoolId, status: "active", actorType: "student" },
      select: { id: true, _count: { select: { scenes: true } } },
    });
    if (!activity) return fail("NOT_FOUND");
    // opening as many scenes as the activity has, or more, is opening all
    const value = open === null || open >= activity._count.scenes ? null : open;
    await tx.activity.update({ where: { id: activityId }, data: { selfOpenScenes: value }, select: { id: true } });
    await audit(
      {
        action: "activity.pacing",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { open: value },
      },
      tx,
    );
    await publish(`school:${ctx.schoolId}`, "modes", tx);
    return ok({ open: value });
  });
}
