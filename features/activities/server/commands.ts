import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { publish } from "@/platform/notify/bus";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { copyTemplateToSchoolTx, createActivityTx } from "@/features/activities/server/template-copy";
import { type ActivityFile, contentOfFile } from "../shared/file-format";
import { canDelete, endsGuideSession, isPermutation } from "../shared/policy";
import type { FeedbackTiming } from "../shared/modes";
import { activitySnapshotTx } from "./snapshot";
import { rememberAfterSave } from "./furigana-word-commands";
import type { ActivityMode, SaveOrderInput } from "../shared/schema";
import { publishEnded, type SessionEnded } from "./session-events";

/**
 * Activity writes. Every function takes a school id that passed
 * authorizeSchool() and scopes its WHERE clauses by it, so an activity of
 * another school is simply NOT_FOUND.
 */
interface Ctx {
  schoolId: AuthorizedSchoolId;
  actorId: string;
}

export async function copyTemplate(
  ctx: Ctx,
  input: { templateId: string; title?: string },
): Promise<ActionResult<{ id: string }>> {
  return db().$transaction(async (tx) => {
    const activity = await copyTemplateToSchoolTx(tx, { ...input, schoolId: ctx.schoolId, createdById: ctx.actorId });
    if (!activity) return fail("NOT_FOUND");
    await audit(
      {
        action: "activity.copy",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activity.id,
        meta: { templateId: input.templateId },
      },
      tx,
    );
    return ok({ id: activity.id });
  });
}

/**
 * A new activity from an exported file (already parsed by parseActivityFile),
 * made as a template copy is; the same file imported twice makes two activities
 * (docs/adr/0048-sharing-an-activity-as-a-file.md).
 */
export async function importActivity(
  ctx: Ctx,
  file: ActivityFile,
): Promise<ActionResult<{ id: string; title: string }>> {
  return db().$transaction(async (tx) => {
    const activity = await createActivityTx(tx, {
      schoolId: ctx.schoolId,
      createdById: ctx.actorId,
      content: contentOfFile(file),
    });
    await audit(
      {
        action: "activity.import",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activity.id,
        meta: { scenes: file.scenes.length, version: file.version },
      },
      tx,
    );
    return ok(activity);
  });
}

/** A copy's title: the source's with 「（コピー）」, within the 200 characters a title may have. */
export const copyTitle = (title: string) => `${Array.from(title).slice(0, 195).join("")}（コピー）`;

/**
 * A copy of one of the school's activities (docs/product-design.md "Activities"): the same
 * scenes, group orders and feedback timing, as a new activity in standby with none of the
 * answers. It goes through the activity file's shape, as an import does, so a duplicate and an
 * exported file never differ; its images are the school's own already and stay placed.
 */
export async function duplicateActivity(
  ctx: Ctx,
  activityId: string,
): Promise<ActionResult<{ id: string; title: string }>> {
  return db().$transaction(async (tx) => {
    const source = await activitySnapshotTx(tx, ctx.schoolId, activityId);
    if (!source.ok) return source;
    const activity = await createActivityTx(tx, {
      schoolId: ctx.schoolId,
      createdById: ctx.actorId,
      content: contentOfFile(source.data.file, copyTitle(source.data.title)),
    });
    await audit(
      {
        action: "activity.duplicate",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activity.id,
        meta: { from: activityId },
      },
      tx,
    );
    return ok(activity);
  });
}

/**
 * Ends the running sessions of the activities in `tx` (a mode change, an archive, the year-end rollover); what to
 * publish once it commits (session-events.ts `publishEnded`).
 */
export async function endRunningSessions(tx: Prisma.TransactionClient, activityIds: string[]): Promise<SessionEnded[]> {
  const endedAt = new Date();
  const ended = await tx.guideSession.updateManyAndReturn({
    where: { activityId: { in: activityIds }, endedAt: null },
    data: { endedAt, version: { increment: 1 } },
    select: { id: true, activityId: true },
  });
  return ended.map((s) => ({ sessionId: s.id, activityId: s.activityId, endedAt: endedAt.toISOString() }));
}

/** Students' homes and live screens follow a mode or lifecycle change (sent on commit). */
async function publishActivityChange(tx: Prisma.TransactionClient, schoolId: string, activityId: string) {
  await publish(`school:${schoolId}`, "modes", tx);
  await publish(`activity:${activityId}`, "state", tx);
}

export async function changeMode(ctx: Ctx, activityId: string, mode: ActivityMode): Promise<ActionResult<null>> {
  let ended: SessionEnded[] = [];
  const result = await db().$transaction(async (tx) => {
    const current = await tx.activity.findFirst({
      where: { id: activityId, schoolId: ctx.schoolId },
      select: { mode: true },
    });
    if (!current) return fail("NOT_FOUND");
    await tx.activity.update({
      where: { id: activityId },
      data: { mode, version: { increment: 1 } },
      select: { id: true },
    });
    if (endsGuideSession(current.mode, mode)) ended = await endRunningSessions(tx, [activityId]);
    await audit(
      {
        action: "activity.mode",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { from: current.mode, to: mode },
      },
      tx,
    );
    await publishActivityChange(tx, ctx.schoolId, activityId);
    return ok(null);
  });
  ended.forEach(publishEnded);
  return result;
}

/** The settings beside the content, each changed on its own and audited with its value before and after. */
type Settings = { feedback: FeedbackTiming; allowRetries: boolean; curriculumCode: string | null };

/** A setting beside the content: the editor's version is left alone (an open scene form stays valid). */
async function setSetting<K extends keyof Settings>(
  ctx: Ctx,
  activityId: string,
  key: K,
  value: Settings[K],
  action: string,
): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const current = await tx.activity.findFirst({
      where: { id: activityId, schoolId: ctx.schoolId },
      select: { feedback: true, allowRetries: true, curriculumCode: true },
    });
    if (!current) return fail("NOT_FOUND");
    await tx.activity.update({
      where: { id: activityId },
      data: { [key]: value } as Prisma.ActivityUpdateInput,
      select: { id: true },
    });
    await audit(
      {
        action,
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { from: current[key], to: value },
      },
      tx,
    );
    return ok(null);
  });
}

/** When students see whether they answered correctly (docs/product-design.md "Activities", feedback timing). */
export function setFeedback(ctx: Ctx, activityId: string, feedback: FeedbackTiming): Promise<ActionResult<null>> {
  return setSetting(ctx, activityId, "feedback", feedback, "activity.feedback");
}

/**
 * Whether a student may answer a scene again after its verdict and key were shown
 * (docs/adr/0075-retries.md): every attempt is kept, the first stays the one marked.
 */
export function setRetries(ctx: Ctx, activityId: string, allowRetries: boolean): Promise<ActionResult<null>> {
  return setSetting(ctx, activityId, "allowRetries", allowRetries, "activity.retries");
}

/** The activity's 学習指導要領コード (null: none), sent with its learning records (features/lti/README.md). */
export function setCurriculumCode(ctx: Ctx, activityId: string, code: string | null): Promise<ActionResult<null>> {
  return setSetting(ctx, activityId, "curriculumCode", code, "activity.curriculumCode");
}

/**
 * Who answers the activity. Refused (CONFLICT) once it has answers, which were given as
 * that kind of user, or while students or teachers can answer it (guide or self mode):
 * the row lock orders this against a mode change and against answers being written.
 */
export async function setActorType(
  ctx: Ctx,
  activityId: string,
  actorType: "student" | "teacher",
): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ actor_type: string; mode: string }[]>`
      select actor_type::text, mode::text from activities where id = ${activityId}::uuid and school_id = ${ctx.schoolId}::uuid for update`;
    if (!current) return fail("NOT_FOUND");
    if (current.actor_type === actorType) return ok(null);
    const answered = await tx.response.findFirst({ where: { activityId }, select: { id: true } });
    if (answered || current.mode === "guide" || current.mode === "self") return fail("CONFLICT");
    await tx.activity.update({ where: { id: activityId }, data: { actorType }, select: { id: true } });
    await audit(
      {
        action: "activity.actorType",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { from: current.actor_type, to: actorType },
      },
      tx,
    );
    await publishActivityChange(tx, ctx.schoolId, activityId);
    return ok(null);
  });
}

export async function setArchived(ctx: Ctx, activityId: string, archived: boolean): Promise<ActionResult<null>> {
  let ended: SessionEnded[] = [];
  const result = await db().$transaction(async (tx) => {
    const changed = await tx.activity.updateMany({
      where: { id: activityId, schoolId: ctx.schoolId, status: archived ? "active" : "archived" },
      data: archived
        ? { status: "archived", archivedAt: new Date(), version: { increment: 1 } }
        : { status: "active", archivedAt: null, version: { increment: 1 } },
    });
    if (changed.count !== 1) return fail("NOT_FOUND");
    if (archived) ended = await endRunningSessions(tx, [activityId]);
    await audit(
      {
        action: archived ? "activity.archive" : "activity.restore",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
      },
      tx,
    );
    await publishActivityChange(tx, ctx.schoolId, activityId);
    return ok(null);
  });
  ended.forEach(publishEnded);
  return result;
}

/** Permanent deletion of an archived activity; its scenes, sessions and responses go with it. */
export async function deleteActivity(ctx: Ctx, activityId: string): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const activity = await tx.activity.findFirst({
      where: { id: activityId, schoolId: ctx.schoolId },
      select: { status: true, title: true },
    });
    if (!activity) return fail("NOT_FOUND");
    if (!canDelete(activity.status)) return fail("CONFLICT");
    const responses = await tx.response.count({ where: { activityId } });
    await tx.activity.delete({ where: { id: activityId }, select: { id: true } });
    await audit(
      {
        action: "activity.delete",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activityId,
        meta: { title: activity.title, responses },
      },
      tx,
    );
    return ok(null);
  });
}

/**
 * Title, default scene order and group orders in one write, guarded by the
 * version the editor loaded: a concurrent edit gets CONFLICT, never a mix.
 */
export async function saveSceneOrder(ctx: Ctx, input: SaveOrderInput): Promise<ActionResult<{ version: number }>> {
  return rememberAfterSave(ctx, input.title, await writeSceneOrder(ctx, input));
}

function writeSceneOrder(ctx: Ctx, input: SaveOrderInput): Promise<ActionResult<{ version: number }>> {
  return db().$transaction(async (tx) => {
    const activity = await tx.activity.findFirst({
      where: { id: input.activityId, schoolId: ctx.schoolId },
      select: { title: true, template: { select: { title: true } }, scenes: { select: { id: true } } },
    });
    if (!activity) return fail("NOT_FOUND");
    const sceneIds = activity.scenes.map((s) => s.id);
    const orders = [input.order, ...Object.values(input.groupOrders).filter((o): o is string[] => o !== null)];
    if (!orders.every((o) => isPermutation(o, sceneIds)))
      return fail("VALIDATION", { order: ["not a permutation of the scenes"] });
    const bumped = await tx.activity.updateMany({
      where: { id: input.activityId, version: input.version },
      data: { title: input.title || activity.template?.title || activity.title, version: { increment: 1 } },
    });
    if (bumped.count !== 1) return fail("CONFLICT");
    for (const [index, id] of input.order.entries()) {
      await tx.activityScene.update({ where: { id }, data: { position: index }, select: { id: true } });
    }
    for (const [group, order] of Object.entries(input.groupOrders)) {
      if (order === null) await tx.activitySceneOrder.deleteMany({ where: { activityId: input.activityId, group } });
      else
        await tx.activitySceneOrder.upsert({
          where: { activityId_group: { activityId: input.activityId, group } },
          create: { activityId: input.activityId, group, sceneIds: order },
          update: { sceneIds: order },
        });
    }
    await audit(
      {
        action: "activity.order",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: input.activityId,
      },
      tx,
    );
    return ok({ version: input.version + 1 });
  });
}
