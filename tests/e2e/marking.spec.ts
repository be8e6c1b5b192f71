import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { expectAccessible, expectNotification, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

type Options = { options: { id: string; correct?: boolean }[] };
const scenesOf = (activityId: string) => e2eDb().activityScene.findMany({ where: { activityId }, orderBy: { position: "asc" } });
/** A correct flag in a page's HTML or its RSC payload (escaped inside script strings). */
const KEY = /correct\\*"\s*:\s*true/;

test.describe("correct answers", () => {
  test("a teacher marks the correct option by keyboard, the staff preview shows it; a student's pages never carry the flag", async ({ page, browser }) => {
    const { teacher, school, students } = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), { templateId: "science-dissolve", schoolId: school.id, mode: "self" });
    const choice = (await scenesOf(activity.id))[2]!; // single_choice "solution": clear / cloudy / colored
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(`/dashboard/teacher/activities/edit/${choice.activityId}`);
    const item = page.locator(`[data-scene-id="${choice.id}"][data-testid="scene-item"]`);
    await item.getByTestId("edit-scene").click();
    const form = item.getByTestId("scene-form");
    const box = form.getByRole("checkbox", { name: "選択肢1は正解" });
    await box.focus();
    await page.keyboard.press("Space");
    await expect(box).toBeChecked();
    await expect(item.getByTestId("scene-preview").locator('[data-option="clear"] [data-testid="correct-mark"]')).toHaveText("正解");
    await expect(item.getByTestId("scene-preview").getByTestId("correct-mark")).toHaveCount(1);
    await expectAccessible(page);
    await form.getByTestId("save-scene").focus();
    await page.keyboard.press("Enter");
    await expectNotification(page, "シーンを保存しました");
    await expect
      .poll(async () => ((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: choice.id } })).content as Options).options.map((o) => o.correct ?? false))
      .toEqual([true, false, false]);
    // the staff preview page shows it too (and the check below would see it)
    const preview = await page.request.get(`/dashboard/teacher/activities/preview/${activity.id}`);
    expect(preview.status()).toBe(200);
    expect(await preview.text()).toMatch(KEY);

    const other = await browser.newContext();
    const student = await other.newPage();
    await signInAs(student, students[0]!.email!, TEST_PASSWORD);
    for (const path of ["solo", "response"]) {
      const res = await student.request.get(`/dashboard/student/activities/${path}/${activity.id}`);
      expect(res.status()).toBe(200);
      expect(await res.text()).not.toMatch(KEY);
    }
    await student.goto(`/dashboard/student/activities/solo/${activity.id}`);
    await expect(student.getByTestId("scene")).toBeVisible();
    await expect(student.getByTestId("correct-mark")).toHaveCount(0);
    await other.close();
  });
});
