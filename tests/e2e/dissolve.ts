import { type Browser, expect, type Page } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { editUrl, signInAs } from "./helpers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";

/** The stored prompt of a scene. */
export const promptOf = async (sceneId: string) =>
  ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: sceneId } })).content as { prompt: string }).prompt;

/** A teacher of a new school opens the editor of a science-dissolve copy; `item` is its single-choice scene. */
export async function openDissolve(page: Page, studentCount: number) {
  const { teacher, school, students } = await makeSchool(studentCount);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const choice = (await scenesOf(activity.id))[2]!;
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto(editUrl(activity.id));
  return { activity, choice, students, item: page.locator(`[data-scene-id="${choice.id}"][data-testid="scene-item"]`) };
}

/** A student signs in and plays the science-dissolve template's self-paced copy up to its single-choice scene (the third). */
export async function playDissolveToChoice(student: Page, email: string, activityId: string): Promise<Page> {
  await signInAs(student, email, TEST_PASSWORD);
  await student
    .getByTestId("my-activities")
    .locator(`[data-activity-id="${activityId}"]`)
    .getByTestId("go-start")
    .click();
  await student.getByTestId("next").click();
  await student.locator('[data-option="same"] input').check();
  await student.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  await student.getByTestId("reason").locator("textarea").fill("なくならないから");
  await student.getByTestId("next").click();
  return student;
}

/** The student, reading aids on, sees the prompt 「|水溶液(すいようえき)は**どれ**」 and one formula: ruby, bold and typeset math. */
export async function expectStudentSeesPrompt(browser: Browser, email: string, activityId: string) {
  const other = await browser.newContext();
  const student = await playDissolveToChoice(await other.newPage(), email, activityId);
  const scene = student.getByTestId("scene");
  await expect(scene.locator("ruby rt").first()).toHaveText("すいようえき");
  await expect(scene.locator("strong")).toHaveText("どれ");
  await expect(scene.locator(".katex")).toHaveCount(1);
  await other.close();
}
