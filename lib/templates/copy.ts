import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Copies a template (and its scenes) into a school as an independent activity.
 * Takes a transaction client so that it is shared by lib/activities mutations,
 * the seed and the test factories. An empty title falls back to the template
 * title (docs/requirements.md §5).
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
  const activity = await tx.activity.create({
    data: {
      id: input.id,
      schoolId: input.schoolId,
      templateId: template.id,
      title,
      actorType: template.actorType,
      createdById: input.createdById ?? null,
    },
    select: { id: true, title: true },
  });
  await tx.activityScene.createMany({
    data: template.scenes.map((scene, index) => ({
      activityId: activity.id,
      sourceSceneId: scene.id,
      position: index,
      type: scene.type,
      content: scene.content as Prisma.InputJsonValue,
    })),
  });
  return activity;
}
