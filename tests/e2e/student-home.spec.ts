import { type Browser, expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText } from "./helpers";
import { e2eDb, makeSchool } from "./db";
import { signedInBrowsers } from "./browsers";

const signedInAs = signedInBrowsers();
const signedIn = (browser: Browser, email: string, lang?: "ja" | "ja-ruby" | "ja-kana") =>
  signedInAs(browser, email, undefined, { lang });

test("student home: 参加する only while a live session runs; a waiting guide activity says the teacher starts it; the card follows start and end live", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
    title: "ライブ確認",
  });
  const kid = await signedIn(browser, students[0]!.email!);
  const card = kid.locator(`[data-activity-id="${activity.id}"]`);
  await expect(card).toHaveAttribute("data-mode", "guide");
  await expect(card.getByTestId("go-join")).toHaveCount(0);
  expect(await baseText(card.getByTestId("card-waiting"))).toContain("先生がはじめたら");

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await expect(teacherPage.getByTestId("guide-console")).toBeVisible();
  // the running session reaches the home without a reload
  await expect(card.getByTestId("go-join")).toBeVisible({ timeout: 20_000 });
  await expect(card.getByTestId("card-waiting")).toHaveCount(0);

  await teacherPage.getByTestId("end-session").click();
  await teacherPage.locator('dialog[open] [data-testid="confirm-ok"]').click();
  await expect(card.getByTestId("go-join")).toHaveCount(0, { timeout: 20_000 });
  await expect(card.getByTestId("card-waiting")).toBeVisible();
});

test("student home: self-paced progress counts answerable scenes only; a completed activity links to its answers", async ({
  browser,
}) => {
  const { school, students } = await makeSchool(1);
  const self = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
    title: "進み具合",
  });
  const done = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "complete",
    title: "終わった活動",
  });
  const kid = await signedIn(browser, students[0]!.email!);
  const card = kid.locator(`[data-activity-id="${self.id}"]`);
  // science-dissolve: an information scene and four questions
  expect(await baseText(card.getByTestId("card-progress"))).toContain("0 / 4");

  await card.getByTestId("go-start").click();
  await expect(kid.getByTestId("progress")).toContainText("1 / 5");
  await kid.getByTestId("next").click(); // the information scene, seen
  await expect(kid.getByTestId("progress")).toContainText("2 / 5");
  await expect.poll(() => e2eDb().response.count({ where: { activityId: self.id, userId: students[0]!.id } })).toBe(1);
  await kid.goto("/dashboard/student/home");
  expect(await baseText(card.getByTestId("card-progress"))).toContain("0 / 4");
  await expect(card.getByTestId("go-continue")).toHaveCount(0);

  const finished = kid.locator(`[data-activity-id="${done.id}"]`);
  await finished.getByTestId("go-review").click();
  await expect(kid).toHaveURL(`/dashboard/student/activities/response/${done.id}`);
  await expect(kid.getByTestId("response-not-yet").or(kid.getByTestId("answer-review"))).toBeVisible();
});

test("names: a nickname that already ends in an honorific gets none added; in furigana mode the student's name carries its reading per part", async ({
  browser,
}) => {
  const { students } = await makeSchool(2);
  await e2eDb().user.update({ where: { id: students[0]!.id }, data: { nickname: "はなちゃん" } });
  const kid = await signedIn(browser, students[0]!.email!);
  const welcome = await baseText(kid.getByTestId("welcome"));
  expect(welcome).toContain("はなちゃん");
  expect(welcome).not.toContain("ちゃんさん");

  const other = await signedIn(browser, students[1]!.email!, "ja-ruby");
  await other.getByTestId("drawer-trigger").click();
  const drawerName = other.getByTestId("drawer-name");
  await expect(drawerName.locator("ruby")).toHaveCount(2);
  await expect(drawerName.locator("ruby").first()).toContainText("試験");
  await expect(drawerName.locator("rt").first()).toHaveText("しけん");
  await expect(drawerName.locator("rt").nth(1)).toHaveText("はなこ2");
  await expect(other.getByTestId("welcome").locator("rt").first()).toHaveText("しけん");
});
