import { db } from "@/platform/db";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { createAcademy, createSchool, uniqueTag } from "../../prisma/seed/factories";

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
