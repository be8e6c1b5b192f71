import { db } from "@/platform/db";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { createAcademy, createActivityFromTemplate, createSchool, uniqueTag } from "../../prisma/seed/factories";

/**
 * The bundled templates, and an academy of two schools (the one under test, and `other` whose
 * users and activities must stay out of reach); `tag` makes e-mails and names unique per run.
 */
export async function twoSchools() {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `A${tag}`, nameKana: "えー" });
  const school = await createSchool(db(), { academyId: academy.id, name: `A${tag}`, nameKana: "えー" });
  const other = await createSchool(db(), { academyId: academy.id, name: `B${tag}`, nameKana: "びー" });
  return { tag, academy, school, other };
}

/** A self-paced copy of the dissolving template (science-dissolve) in the school, and its scenes in order. */
export async function dissolveActivity(schoolId: string) {
  const activity = (await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId, mode: "self" }))
    .id;
  const scenes = await db().activityScene.findMany({
    where: { activityId: activity },
    orderBy: { position: "asc" },
    select: { id: true, type: true, position: true, content: true },
  });
  return { activity, scenes };
}

/** The dissolving template (science-dissolve) in the school, in its own mode, with a key on its single-choice scene (the third: "clear" is correct). */
export async function keyedDissolve(schoolId: string) {
  const activity = await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId });
  const scenes = await db().activityScene.findMany({
    where: { activityId: activity.id },
    orderBy: { position: "asc" },
    select: { id: true, content: true },
  });
  const choice = scenes[2]!;
  const content = choice.content as { options: { id: string; label: string }[] };
  await db().activityScene.update({
    where: { id: choice.id },
    data: { content: { ...content, options: content.options.map((o) => ({ ...o, correct: o.id === "clear" })) } },
  });
  return { activity, scenes, choice };
}
