import "server-only";
import { audit } from "@/lib/audit/log";
import { db } from "@/lib/db";
import { type ActionResult, fail, ok } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { publish } from "@/lib/live/bus";
import type { SchoolCtx } from "@/lib/schools/school-action";
import { hashProjectorToken, newProjectorToken } from "./token";

/** The running guide session of one of the school's activities, or null. */
function runningSession(tx: Prisma.TransactionClient, ctx: SchoolCtx, activityId: string) {
  return tx.guideSession.findFirst({
    where: { activityId, endedAt: null, activity: { schoolId: ctx.schoolId, status: "active", mode: "guide" } },
    select: { id: true },
  });
}

/**
 * A new read-only link to the running session's projector view: the token is returned once, its
 * hash kept. Several may be open (two screens); they all stop with the session or revokeProjectorLinks.
 */
export async function createProjectorLink(ctx: SchoolCtx, activityId: string): Promise<ActionResult<{ path: string }>> {
  return db().$transaction(async (tx) => {
    const session = await runningSession(tx, ctx, activityId);
    if (!session) return fail("CONFLICT", { session: ["notRunning"] });
    const token = newProjectorToken();
    await tx.projectorLink.create({ data: { sessionId: session.id, tokenHash: hashProjectorToken(token), createdById: ctx.actorId }, select: { id: true } });
    await audit({ action: "projector.open", actorId: ctx.actorId, schoolId: ctx.schoolId, targetType: "activity", targetId: activityId }, tx);
    return ok({ path: `/projector/${token}` });
  });
}

/** Every projector link of the running session stops working (their pages say the lesson ended). */
export async function revokeProjectorLinks(ctx: SchoolCtx, activityId: string): Promise<ActionResult<{ revoked: number }>> {
  return db().$transaction(async (tx) => {
    const session = await runningSession(tx, ctx, activityId);
    if (!session) return fail("CONFLICT", { session: ["notRunning"] });
    const { count } = await tx.projectorLink.updateMany({ where: { sessionId: session.id, revokedAt: null }, data: { revokedAt: new Date() } });
    await audit({ action: "projector.revoke", actorId: ctx.actorId, schoolId: ctx.schoolId, targetType: "activity", targetId: activityId }, tx);
    await publish(`activity:${activityId}`, "state", tx);
    return ok({ revoked: count });
  });
}

/** Stars (or unstars) one answer to the activity in the running session; the projector follows at once. */
export async function setAnswerStar(ctx: SchoolCtx, activityId: string, responseId: string, starred: boolean): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const session = await runningSession(tx, ctx, activityId);
    if (!session) return fail("CONFLICT", { session: ["notRunning"] });
    const response = await tx.response.findFirst({ where: { id: responseId, activityId }, select: { id: true } });
    if (!response) return fail("NOT_FOUND");
    const key = { sessionId: session.id, responseId };
    if (starred) await tx.projectorStar.upsert({ where: { sessionId_responseId: key }, create: key, update: {}, select: { responseId: true } });
    else await tx.projectorStar.deleteMany({ where: key });
    // a state change, not a count: the projector and the console show it at once (counts settle for 40 ms first)
    await publish(`activity:${activityId}`, "state", tx);
    return ok(null);
  });
}
