import { expect } from "vitest";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { saveSceneContent } from "@/features/activities/server/scene-commands";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

/** The furigana proposals as `base=reading`, in text order. */
export const shown = (proposals: { base: string; reading: string }[]) => proposals.map((p) => `${p.base}=${p.reading}`);

/**
 * The school readings tests' world: an academy of two schools (`school`, `other`) and a teacher of `school` named
 * 読売 先生 (the readings page shows who corrected a word), the templates synced.
 */
export async function readingsWorld(): Promise<{
  school: AuthorizedSchoolId;
  other: AuthorizedSchoolId;
  teacher: string;
}> {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `読学園${tag}`, nameKana: "よみがくえん" });
  const schoolOf = async (name: string, nameKana: string) =>
    (await createSchool(db(), { academyId: academy.id, name: `${name}${tag}`, nameKana })).id as AuthorizedSchoolId;
  const school = await schoolOf("読校", "よみこう");
  const other = await schoolOf("別読校", "べつよみこう");
  const teacher = await createUser(db(), {
    role: "teacher",
    email: `rd-${tag}@t.example`,
    name: "読売 先生",
    nameKana: "よみうり せんせい",
    schoolId: school,
  });
  return { school, other, teacher: teacher.id };
}

/** Saves `prompt` as the text of the first scene (an info scene) of a fresh activity of `schoolId`, as `teacher`. */
export async function saveSceneText(prompt: string, schoolId: AuthorizedSchoolId, teacher: string): Promise<void> {
  const act = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId });
  const first = await db().activityScene.findFirstOrThrow({
    where: { activityId: act.id },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  expect(
    await saveSceneContent(
      { schoolId, actorId: teacher },
      { activityId: act.id, version: 1, sceneId: first.id, scene: { type: "info", content: { prompt } } },
    ),
  ).toEqual({ ok: true, data: { version: 2 } });
}
