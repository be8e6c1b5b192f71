import "server-only";
import { audit } from "@/platform/audit/log";
import { db } from "@/platform/db";
import { type ActionResult, fail, ok } from "@/platform/errors";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { placeSchoolImages } from "@/features/scenes/server/image-store";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import type { Scene } from "@/features/scenes/shared/schema";
import { createActivityTx } from "@/features/activities/server/template-copy";
import { rememberAfterSave } from "./furigana-word-commands";
import {
  type AddSceneInput,
  type BlankActivityInput,
  type DeleteSceneInput,
  MAX_SCENES,
  type RetypeSceneInput,
  SCENE_REFUSAL,
  type SaveSceneInput,
  type SceneRefInput,
} from "../shared/scene-schema";

/**
 * Scene edits (features/activities/README.md "Activity editor"). Each runs in one
 * transaction that ends by moving the activity's version on from the one the
 * editor loaded: a stale editor gets CONFLICT and nothing is written. An answer
 * never changes meaning (docs/adr/0059-scene-versions.md): a scene whose current
 * version has answers changes only into a new version, and is deleted only by
 * retiring it, each after the teacher confirmed (its row is locked first, so an
 * answer arriving meanwhile waits and the count below sees it).
 */
interface Ctx {
  schoolId: AuthorizedSchoolId;
  actorId: string;
}
type Tx = Prisma.TransactionClient;
const refused = (reason: keyof typeof SCENE_REFUSAL, code: "CONFLICT" | "VALIDATION" = "CONFLICT") =>
  fail(code, { scene: [SCENE_REFUSAL[reason]] });

/**
 * The activity's scene ids in default order; null when the activity is not the school's.
 * Locks the activity row first (the lock the version bump takes anyway), so concurrent edits
 * of one activity queue here instead of locking scene rows in different orders (a deadlock).
 */
async function sceneIdsOf(tx: Tx, ctx: Ctx, activityId: string) {
  await tx.$queryRaw`select 1 from activities where id = ${activityId}::uuid and school_id = ${ctx.schoolId}::uuid for no key update`;
  const activity = await tx.activity.findFirst({
    where: { id: activityId, schoolId: ctx.schoolId },
    select: { scenes: { orderBy: { position: "asc" }, select: { id: true } } },
  });
  return activity ? activity.scenes.map((s) => s.id) : null;
}

/**
 * Locks the scene row (FOR UPDATE waits for answers being written to it) and tells whether its
 * current version has answers (`answered`) and whether any version has (`anyAnswers`).
 */
async function lockScene(tx: Tx, activityId: string, sceneId: string) {
  const rows = await tx.$queryRaw<{ type: string; version: number }[]>`
    select type::text as type, version from activity_scenes where id = ${sceneId}::uuid and activity_id = ${activityId}::uuid for update`;
  if (rows.length === 0) return null;
  const { type, version } = rows[0]!;
  const [current, all] = await Promise.all([
    tx.response.count({ where: { sceneId, sceneVersion: version } }),
    tx.response.count({ where: { sceneId } }),
  ]);
  return { type, version, answered: current > 0, anyAnswers: all > 0 };
}

/** The audit line of a change to an activity's scenes, in the change's transaction. */
const auditScenes = (tx: Tx, ctx: Ctx, action: string, activityId: string, meta: Prisma.InputJsonObject) =>
  audit(
    { action, actorId: ctx.actorId, schoolId: ctx.schoolId, targetType: "activity", targetId: activityId, meta },
    tx,
  );

/** True when a live session of the activity shows the scene now (it is then neither deleted nor made another type). */
const shownLive = async (tx: Tx, activityId: string, sceneId: string) =>
  (await tx.guideSession.count({ where: { activityId, endedAt: null, currentSceneId: sceneId } })) > 0;

/** The version check, always the last check before writing: true when this edit may go ahead. */
async function bump(tx: Tx, ctx: Ctx, activityId: string, version: number) {
  const changed = await tx.activity.updateMany({
    where: { id: activityId, schoolId: ctx.schoolId, version },
    data: { version: { increment: 1 } },
  });
  return changed.count === 1;
}

async function writePositions(tx: Tx, order: string[]) {
  for (const [position, id] of order.entries())
    await tx.activityScene.update({ where: { id }, data: { position }, select: { id: true } });
}

/** Rewrites every counterbalance group's own order with `change` (the default order is written separately). */
async function rewriteGroupOrders(tx: Tx, activityId: string, change: (order: string[]) => string[]) {
  const orders = await tx.activitySceneOrder.findMany({
    where: { activityId },
    select: { group: true, sceneIds: true },
  });
  for (const o of orders) {
    await tx.activitySceneOrder.update({
      where: { activityId_group: { activityId, group: o.group } },
      data: { sceneIds: change(o.sceneIds) },
    });
  }
}

const insertAfter = (order: string[], after: string | undefined, id: string) => {
  const at = after ? order.indexOf(after) : -1;
  return at < 0 ? [...order, id] : [...order.slice(0, at + 1), id, ...order.slice(at + 1)];
};

/** The scene with its images checked to be the school's (and their stored sizes), or null (features/scenes/README.md "Images"). */
async function withSchoolImages<S extends { scene: Scene }>(ctx: Ctx, input: S): Promise<S | null> {
  const content = await placeSchoolImages(ctx.schoolId, input.scene.content);
  return content ? { ...input, scene: { ...input.scene, content } as Scene } : null;
}

type LockedScene = NonNullable<Awaited<ReturnType<typeof lockScene>>>;

/**
 * One scene's edit: its images checked to be the school's, then in one transaction the activity found (its row
 * locked) and the scene's row locked before `change` runs; NOT_FOUND when either is not there.
 */
async function changeScene<S extends { activityId: string; sceneId: string; scene: Scene }>(
  ctx: Ctx,
  edit: S,
  change: (tx: Tx, input: S, scene: LockedScene) => Promise<ActionResult<{ version: number }>>,
): Promise<ActionResult<{ version: number }>> {
  const input = await withSchoolImages(ctx, edit);
  if (!input) return refused("image", "VALIDATION");
  return db().$transaction(async (tx) => {
    if (!(await sceneIdsOf(tx, ctx, input.activityId))) return fail("NOT_FOUND");
    const scene = await lockScene(tx, input.activityId, input.sceneId);
    return scene ? change(tx, input, scene) : fail("NOT_FOUND");
  });
}

/** Saves a scene's content; then the school's word list learns the readings its teacher corrected in it. */
export async function saveSceneContent(ctx: Ctx, edit: SaveSceneInput): Promise<ActionResult<{ version: number }>> {
  return rememberAfterSave(ctx, edit.scene.content, await writeSceneContent(ctx, edit));
}

function writeSceneContent(ctx: Ctx, edit: SaveSceneInput): Promise<ActionResult<{ version: number }>> {
  return changeScene(ctx, edit, async (tx, input, scene) => {
    if (scene.type !== input.scene.type) return refused("type", "VALIDATION");
    if (scene.answered && !input.newVersion) return refused("answered");
    if (!(await bump(tx, ctx, input.activityId, input.version))) return fail("CONFLICT");
    // answers to the current version keep its content: it moves to scene_versions and the scene gets the next version
    if (scene.answered)
      await tx.$executeRaw`insert into scene_versions (scene_id, version, content) select id, version, content from activity_scenes where id = ${input.sceneId}::uuid`;
    const content = input.scene.content as Prisma.InputJsonValue;
    await tx.activityScene.update({
      where: { id: input.sceneId },
      data: scene.answered ? { content, version: { increment: 1 } } : { content },
      select: { id: true },
    });
    const meta = scene.answered
      ? { sceneId: input.sceneId, sceneVersion: scene.version + 1 }
      : { sceneId: input.sceneId };
    await auditScenes(tx, ctx, "activity.scene.edit", input.activityId, meta);
    return ok({ version: input.version + 1 });
  });
}

/**
 * Makes a scene another type with the content the editor sends (the prompt and image kept by the editor):
 * refused ("answered") once any version of it has answers or it has more than one version, since an answer
 * never changes meaning, and ("live") while a live session shows it.
 */
export function retypeScene(ctx: Ctx, edit: RetypeSceneInput): Promise<ActionResult<{ version: number }>> {
  return changeScene(ctx, edit, async (tx, input, scene) => {
    if (scene.anyAnswers || scene.version > 1) return refused("answered");
    if (await shownLive(tx, input.activityId, input.sceneId)) return refused("live");
    if (!(await bump(tx, ctx, input.activityId, input.version))) return fail("CONFLICT");
    await tx.activityScene.update({
      where: { id: input.sceneId },
      data: { type: input.scene.type, content: input.scene.content as Prisma.InputJsonValue },
      select: { id: true },
    });
    const meta = { sceneId: input.sceneId, from: scene.type, to: input.scene.type };
    await auditScenes(tx, ctx, "activity.scene.retype", input.activityId, meta);
    return ok({ version: input.version + 1 });
  });
}

/** A new scene (or a copy) after `afterSceneId` in the default order and in every group's order. */
async function insertScene(
  tx: Tx,
  ctx: Ctx,
  input: { activityId: string; version: number; afterSceneId?: string; scene: Scene },
  order: string[],
) {
  if (order.length >= MAX_SCENES) return refused("tooMany", "VALIDATION");
  if (!(await bump(tx, ctx, input.activityId, input.version))) return fail("CONFLICT");
  const created = await tx.activityScene.create({
    data: {
      activityId: input.activityId,
      position: order.length,
      type: input.scene.type,
      content: input.scene.content as Prisma.InputJsonValue,
    },
    select: { id: true },
  });
  await writePositions(tx, insertAfter(order, input.afterSceneId, created.id));
  await rewriteGroupOrders(tx, input.activityId, (o) => insertAfter(o, input.afterSceneId, created.id));
  return ok({ version: input.version + 1, sceneId: created.id });
}

/** The audit line of scenes added to an activity (`meta`: which, and how when not one by one). */
const auditAdded = (tx: Tx, ctx: Ctx, activityId: string, meta: Prisma.InputJsonObject) =>
  auditScenes(tx, ctx, "activity.scene.add", activityId, meta);

export async function addScene(
  ctx: Ctx,
  edit: AddSceneInput,
): Promise<ActionResult<{ version: number; sceneId: string }>> {
  const input = await withSchoolImages(ctx, edit);
  if (!input) return refused("image", "VALIDATION");
  return db().$transaction(async (tx) => {
    const order = await sceneIdsOf(tx, ctx, input.activityId);
    if (!order) return fail("NOT_FOUND");
    if (input.afterSceneId && !order.includes(input.afterSceneId)) return fail("NOT_FOUND");
    const result = await insertScene(tx, ctx, input, order);
    if (result.ok) await auditAdded(tx, ctx, input.activityId, { sceneId: result.data.sceneId });
    return result;
  });
}

/**
 * Several new scenes after the last one, in the default order and in every group's order, in one transaction
 * and one version: all of them or none (a PDF's pages, features/activities/server/slides-import.ts). Their images
 * are the school's, stored just before.
 */
export async function appendScenes(
  ctx: Ctx,
  input: { activityId: string; version: number; scenes: Scene[]; via: string },
): Promise<ActionResult<{ version: number }>> {
  const scenes: { type: Scene["type"]; content: Prisma.InputJsonValue }[] = [];
  for (const scene of input.scenes) {
    const content = await placeSchoolImages(ctx.schoolId, scene.content);
    if (!content) return refused("image", "VALIDATION");
    scenes.push({ type: scene.type, content: content as Prisma.InputJsonValue });
  }
  return db().$transaction(async (tx) => {
    const order = await sceneIdsOf(tx, ctx, input.activityId);
    if (!order) return fail("NOT_FOUND");
    if (order.length + scenes.length > MAX_SCENES) return refused("tooMany", "VALIDATION");
    if (!(await bump(tx, ctx, input.activityId, input.version))) return fail("CONFLICT");
    const ids: string[] = [];
    for (const [i, scene] of scenes.entries()) {
      const data = { activityId: input.activityId, position: order.length + i, ...scene };
      ids.push((await tx.activityScene.create({ data, select: { id: true } })).id);
    }
    await rewriteGroupOrders(tx, input.activityId, (o) => [...o, ...ids]);
    await auditAdded(tx, ctx, input.activityId, { sceneIds: ids, via: input.via });
    return ok({ version: input.version + 1 });
  });
}

export async function duplicateScene(
  ctx: Ctx,
  input: SceneRefInput,
): Promise<ActionResult<{ version: number; sceneId: string }>> {
  return db().$transaction(async (tx) => {
    const order = await sceneIdsOf(tx, ctx, input.activityId);
    const source = order?.includes(input.sceneId)
      ? await tx.activityScene.findUnique({ where: { id: input.sceneId }, select: { type: true, content: true } })
      : null;
    if (!order || !source) return fail("NOT_FOUND");
    const scene = { type: source.type, content: source.content } as Scene;
    const result = await insertScene(tx, ctx, { ...input, afterSceneId: input.sceneId, scene }, order);
    if (result.ok)
      await audit(
        {
          action: "activity.scene.duplicate",
          actorId: ctx.actorId,
          schoolId: ctx.schoolId,
          targetType: "activity",
          targetId: input.activityId,
          meta: { from: input.sceneId, sceneId: result.data.sceneId },
        },
        tx,
      );
    return result;
  });
}

/**
 * Deletes a scene without answers; retires one with answers when the teacher confirmed (`retire`): it
 * leaves the activity (activity_id null, retired_from_id kept) so students no longer get it, and its
 * answers stay for exports. Never the last scene, nor the one a live session is showing.
 */
export async function deleteScene(ctx: Ctx, input: DeleteSceneInput): Promise<ActionResult<{ version: number }>> {
  return db().$transaction(async (tx) => {
    const order = await sceneIdsOf(tx, ctx, input.activityId);
    if (!order) return fail("NOT_FOUND");
    const scene = await lockScene(tx, input.activityId, input.sceneId);
    if (!scene) return fail("NOT_FOUND");
    if (scene.anyAnswers && !input.retire) return refused("answered");
    if (order.length <= 1) return refused("last", "VALIDATION");
    if (await shownLive(tx, input.activityId, input.sceneId)) return refused("live");
    if (!(await bump(tx, ctx, input.activityId, input.version))) return fail("CONFLICT");
    if (scene.anyAnswers) {
      await tx.activityScene.update({
        where: { id: input.sceneId },
        data: { activityId: null, retiredFromId: input.activityId, retiredAt: new Date() },
        select: { id: true },
      });
    } else await tx.activityScene.delete({ where: { id: input.sceneId }, select: { id: true } });
    await writePositions(
      tx,
      order.filter((id) => id !== input.sceneId),
    );
    await rewriteGroupOrders(tx, input.activityId, (o) => o.filter((id) => id !== input.sceneId));
    await auditScenes(tx, ctx, "activity.scene.delete", input.activityId, {
      sceneId: input.sceneId,
      retired: scene.anyAnswers,
    });
    return ok({ version: input.version + 1 });
  });
}

/** A new activity of the school from nothing: the title and one information scene, answered by students. */
export async function createBlankActivity(ctx: Ctx, blank: BlankActivityInput): Promise<ActionResult<{ id: string }>> {
  const input = await withSchoolImages(ctx, blank);
  if (!input) return refused("image", "VALIDATION");
  return db().$transaction(async (tx) => {
    const activity = await createActivityTx(tx, {
      schoolId: ctx.schoolId,
      createdById: ctx.actorId,
      content: {
        title: input.title,
        actorType: "student",
        scenes: [{ key: "s1", type: input.scene.type, content: input.scene.content }],
      },
    });
    await audit(
      {
        action: "activity.create",
        actorId: ctx.actorId,
        schoolId: ctx.schoolId,
        targetType: "activity",
        targetId: activity.id,
      },
      tx,
    );
    return ok({ id: activity.id });
  });
}

/**
 * A scene's own 学習指導要領コード (null: the activity's applies), beside its content: the editor's version is left
 * alone, as for the activity's settings. Another school's scene, or one not of the activity, is NOT_FOUND.
 */
export async function setSceneCurriculumCode(
  ctx: Ctx,
  input: { activityId: string; sceneId: string; curriculumCode: string | null },
): Promise<ActionResult<null>> {
  return db().$transaction(async (tx) => {
    const scene = await tx.activityScene.findFirst({
      where: { id: input.sceneId, activityId: input.activityId, activity: { schoolId: ctx.schoolId } },
      select: { curriculumCode: true },
    });
    if (!scene) return fail("NOT_FOUND");
    await tx.activityScene.update({
      where: { id: input.sceneId },
      data: { curriculumCode: input.curriculumCode },
      select: { id: true },
    });
    await auditScenes(tx, ctx, "activity.scene.curriculumCode", input.activityId, {
      sceneId: input.sceneId,
      from: scene.curriculumCode,
      to: input.curriculumCode,
    });
    return ok(null);
  });
}
