import { randomUUID } from "node:crypto";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { ActivityContent } from "@/features/activities/shared/template-content-schema";

/**
 * Creates an independent activity in a school with its own copy of the scenes
 * (and of the group orders): the one way an activity is made, shared by the
 * template copy, the file import, the seed and the test factories.
 */
export async function createActivityTx(
  tx: Prisma.TransactionClient,
  input: { schoolId: string; createdById?: string | null; id?: string; content: ActivityContent },
) {
  const { content } = input;
  const activity = await tx.activity.create({
    data: {
      id: input.id,
      schoolId: input.schoolId,
      templateId: content.templateId ?? null,
      title: content.title,
      actorType: content.actorType,
      feedback: content.feedback,
      curriculumCode: content.curriculumCode ?? null,
      createdById: input.createdById ?? null,
    },
    select: { id: true, title: true },
  });
  const ids = new Map(content.scenes.map((s) => [s.key, randomUUID()]));
  await tx.activityScene.createMany({
    data: content.scenes.map((scene, index) => ({
      id: ids.get(scene.key),
      activityId: activity.id,
      sourceSceneId: scene.sourceSceneId ?? null,
      position: index,
      type: scene.type,
      content: scene.content as Prisma.InputJsonValue,
      curriculumCode: scene.curriculumCode ?? null,
    })),
  });
  const orders = Object.entries(content.groupOrders ?? {});
  if (orders.length > 0) {
    await tx.activitySceneOrder.createMany({
      data: orders.map(([group, keys]) => ({ activityId: activity.id, group, sceneIds: keys.map((k) => ids.get(k)!) })),
    });
  }
  return activity;
}

/**
 * Copies a template (and its scenes) into a school as an independent activity.
 * An empty title falls back to the template title (docs/requirements.md §5).
 */
export async function copyTemplateToSchoolTx(
  tx: Prisma.TransactionClient,
  input: { templateId: string; schoolId: string; title?: string | null; createdById?: string | null; id?: string },
) {
  const template = await tx.activityTemplate.findUnique({
    where: { id: input.templateId },
    select: { id: true, title: true, actorType: true, scenes: { orderBy: { position: "asc" } } },
  });
  if (!template) return null;
  const title = input.title?.trim() ? input.title.trim() : template.title;
  return createActivityTx(tx, {
    schoolId: input.schoolId,
    createdById: input.createdById,
    id: input.id,
    content: {
      title,
      actorType: template.actorType,
      templateId: template.id,
      scenes: template.scenes.map((s) => ({ key: s.id, sourceSceneId: s.id, type: s.type, content: s.content })),
    },
  });
}
