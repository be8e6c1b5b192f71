import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, uniqueTag } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { baseText } from "./helpers";
import { BASE_URL } from "./config";
import { sceneOf } from "./guide";

/** The small things of a lesson's minute: the class picker, class labels, the comment box beside the star. */
const signedIn = signedInBrowsers();
const cell = (page: Page, id: string) => page.locator(`[data-testid="grid-student"][data-student-id="${id}"]`);
const optionTexts = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator("option")
    .evaluateAll((els) => els.map((e) => (e.textContent ?? "").trim()));

test("classes read 「1年1組」: the live class picker starts at the teacher's own homeroom; the students page and the stats filter label and filter by 学年 and 組", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(3);
  // 1年1組 (two students) and 1年2組 (one), the teacher is 担任 of 1年2組 (the roster's homeroom)
  await e2eDb().studentDetail.update({ where: { userId: students[2]!.id }, data: { className: "2", number: 1 } });
  await e2eDb().rosterClass.create({
    data: {
      schoolId: school.id,
      sourcedId: `hr-${uniqueTag()}`,
      title: "1年2組",
      grade: 1,
      className: "2",
      homeroomTeacherId: teacher.id,
    },
  });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const page = await signedIn(browser, teacher.email!);

  await page.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  const pick = page.getByTestId("session-class-pick");
  expect(await optionTexts(page, "session-class-pick")).toEqual(["学校全体（クラスを選ばない）", "1年1組", "1年2組"]);
  await expect(pick.locator("option:checked")).toHaveText("1年2組");
  await expect(pick.locator("option:checked")).toHaveAttribute("data-class", "1:2");
  await page.getByTestId("start-session").click();
  await expect(page.getByTestId("session-class")).toHaveAttribute("data-class", "1:2");

  await page.goto("/dashboard/teacher/students");
  expect(await optionTexts(page, "class-filter")).toEqual(["すべてのクラス", "1年1組", "1年2組"]);
  await page.getByTestId("class-filter").selectOption({ label: "1年2組" });
  await page.getByRole("search").getByRole("button").click();
  await expect(page).toHaveURL(/class=1%3A2/);
  await expect(page.getByTestId("student-table").locator("tbody tr")).toHaveCount(1);

  await page.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  expect(await optionTexts(page, "filter-class")).toEqual(["すべて", "1年1組", "1年2組"]);
  await page.getByTestId("filter-class").selectOption({ label: "1年1組" });
  await page.getByTestId("apply-filter").click();
  await expect(page).toHaveURL(/class=1%3A1/);
  await expect(page.getByTestId("filter-class").locator("option:checked")).toHaveText("1年1組");
});

test("a teacher without a homeroom starts at the whole school", async ({ browser }) => {
  const { teacher, school } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const page = await signedIn(browser, teacher.email!);
  await page.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await expect(page.getByTestId("session-class-pick").locator("option:checked")).toHaveText(
    "学校全体（クラスを選ばない）",
  );
});

test("the live console: a comment box beside the star of a student's answer, saved as the answer's comment and shown again when the answer is opened", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const choice = (await scenesOf(activity.id))[2]!;
  const teacherPage = await signedIn(browser, teacher.email!, { width: 1280, height: 720 });
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  const kid = await signedIn(browser, students[0]!.email!, { width: 360, height: 740 });
  await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
  await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", choice.id);
  await kid.locator('[data-option="cloudy"] input').check();
  await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");

  await cell(teacherPage, students[0]!.id).click();
  const answer = teacherPage.getByTestId("grid-answer");
  await expect(answer).toHaveAttribute("data-status", "done");
  const tools = answer.locator(".grid-answer-tools");
  await expect(tools.getByTestId("grid-star")).toBeVisible();
  await expect(tools.getByTestId("live-comment")).toHaveAttribute("data-loaded", "true");
  await tools.getByTestId("live-comment-text").fill("よく見ていますね");
  await tools.getByTestId("live-comment-save").click();
  const response = await e2eDb().response.findUniqueOrThrow({
    where: { userId_sceneId: { userId: students[0]!.id, sceneId: choice.id } },
    select: { id: true },
  });
  await expect
    .poll(async () => (await e2eDb().responseMark.findUnique({ where: { responseId: response.id } }))?.comment)
    .toBe("よく見ていますね");
  await teacherPage.getByTestId("live-comment").scrollIntoViewIfNeeded();
  await teacherPage.screenshot({ path: "test-results/live-comment-1280.png" });

  // opened again: the comment is there to change
  await teacherPage.getByTestId("grid-answer-close").click();
  await cell(teacherPage, students[0]!.id).click();
  await expect(teacherPage.getByTestId("live-comment")).toHaveAttribute("data-loaded", "true");
  await expect(teacherPage.getByTestId("live-comment-text")).toHaveValue("よく見ていますね");
  expect(await baseText(teacherPage.getByTestId("live-comment-save"))).toBe("コメントを保存");
  await teacherPage.setViewportSize({ width: 390, height: 844 });
  await teacherPage.getByTestId("live-comment").scrollIntoViewIfNeeded();
  await teacherPage.screenshot({ path: "test-results/live-comment-phone.png" });
  // in kana
  await teacherPage.context().addCookies([{ name: "manabiya-lang", value: "ja-kana", url: BASE_URL }]);
  await teacherPage.reload();
  await cell(teacherPage, students[0]!.id).click();
  await expect(teacherPage.getByTestId("live-comment")).toHaveAttribute("data-loaded", "true");
  await expect(teacherPage.getByTestId("live-comment-save")).toHaveText("コメントを ほぞん");
  await teacherPage.getByTestId("live-comment").scrollIntoViewIfNeeded();
  await teacherPage.screenshot({ path: "test-results/live-comment-ja-kana-phone.png" });
  await teacherPage.setViewportSize({ width: 1280, height: 720 });
  await teacherPage.getByTestId("live-comment").scrollIntoViewIfNeeded();
  await teacherPage.screenshot({ path: "test-results/live-comment-ja-kana-1280.png" });
});
