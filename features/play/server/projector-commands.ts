import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { publish } from "@/platform/notify/bus";
import type { SchoolCtx } from "@/features/people/server/school-action";
import { MAX_PROJECTOR_LINKS } from "../shared/projector-schema";
import { hashProjectorToken, newProjectorToken } from "./projector-token";

/**
 * The running guide session of one of the school's activities the control addresses: the one named
 * (NOT_FOUND when it is not one of this activity's of the school), else the only running one;
 * CONFLICT when it is not running (or several run and none is named).
 */
async function runningSession(
  tx: Prisma.TransactionClient,
  ctx: SchoolCtx,
  activityId: string,
  sessionId: string | undefined,
): Promise<ActionResult<{ id: string }>> {
  const where = { activityId, activity: { schoolId: ctx.schoolId } };
  if (sessionId && !(await tx.guideSession.findFirst({ where: { ...where, id: sessionId }, select: { id: true } })))
    return fail("NOT_FOUND");
  const running = await tx.guideSession.findMany({
    where: {
      ...where,
      endedAt: null,
      activity: { schoolId: ctx.schoolId, status: "active", mode: "guide" },
      ...(sessionId ? { id: sessionId } : {}),
    },
    select: { id: true },
    take: 2,
  });
  const session = running[0];
  return session && running.length === 1
    ? ok(session)
    : fail("CONFLICT", { session: [running.length > 1 ? "chooseSession" : "notRunning"] });
}

/**
 * A new read-only link to the running session's projector view: the token is returned once, its
 * hash kept. Up to MAX_PROJECTOR_LINKS may be open (two screens), then RATE_LIMITED until the teacher
 * stops them; they all stop with the session or revokeProjectorLinks. The session's row is locked
 * while its links are counted, so two opened at once cannot pass the cap together.
 */
export async function createProjectorLink(
  ctx: SchoolCtx,
  activityId: string,
  sessionId?: string,
): Promise<ActionResult<{ path: string }>> {
  return db().$transaction(async (tx) => {
    const found = await runningSession(tx, ctx, activityId, sessionId);
    if (!found.ok) return found;
    const session = found.data;
    await tx.$queryRaw`select id from guide_sessions where id = ${session.id}::uuid for update`;
    const open = await tx.projectorLink.count({ where: { sessionId: session.id, revokedAt: null } });
    if (open >= MAX_PROJECTOR_LINKS) return fail("RATE_LIMITED", { projector: ["tooManyLinks"] });
    const token = newProjectorToken();
    await tx.projectorLink.create({
      data: { sessionId: session.id, tokenHash: hashProjectorToken(token), createdById: ctx.actorId },
      select: { id: true },
    });
    await audit(
      {
        action: "projector.open",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
      },
      tx,
    );
    return ok({ path: `/projector/${token}` });
  });
}

/** Every projector link of the running session stops working (their pages say the lesson ended). */
export async function revokeProjectorLinks(
  ctx: SchoolCtx,
  activityId: string,
  sessionId?: string,
): Promise<ActionResult<{ revoked: number }>> {
  return db().$transaction(async (tx) => {
    const found = await runningSession(tx, ctx, activityId, sessionId);
    if (!found.ok) return found;
    const session = found.data;
    const { count } = await tx.projectorLink.updateMany({
      where: { sessionId: session.id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    await audit(
      {
        action: "projector.revoke",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
      },
      tx,
    );
    await publish(`activity:${activityId}`, "state", tx);
    return ok({ revoked: count });
  });
}

/** Stars (or unstars) one answer to the activity in the running session; the projector follows at once. */
export async function setAnswerStar(
  ctx: SchoolCtx,
  activityId: string,
  responseId: string,
  starred: boolean,
  sessionId?: string,
): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const found = await runningSession(tx, ctx, activityId, sessionId);
    if (!found.ok) return found;
    const session = found.data;
    const response = await tx.response.findFirst({ where: { id: responseId, activityId }, select: { id: true } });
    if (!response) return fail("NOT_FOUND");
    const key = { sessionId: session.id, responseId };
    if (starred)
      await tx.projectorStar.upsert({
        where: { sessionId_responseId: key },
        create: key,
        update: {},
        select: { responseId: true },
      });
    else await tx.projectorStar.deleteMany({ where: key });
    // a state change, not a count: the projector and the console show it at once (counts settle for 40 ms first)
    await publish(`activity:${activityId}`, "state", tx);
    return ok(null);
  });
}
