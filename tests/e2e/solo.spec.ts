import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

const status = (page: Page) => page.getByTestId("save-status");

test("solo: a whole activity with the network cut for two scenes; queued answers are stored once it returns, once each", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const { school, students } = await makeSchool(1);
  const student = students[0]!;
  await e2eDb().studentDetail.update({ where: { userId: student.id }, data: { counterbalanceGroup: "A" } });
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  await signInAs(page, student.email!, TEST_PASSWORD);
  await page
    .getByTestId("my-activities")
    .locator(`[data-activity-id="${activity.id}"]`)
    .getByTestId("go-start")
    .click();
  await expect(page.getByTestId("progress")).toContainText("1 / 5");

  // 1: info
  await page.getByTestId("next").click();
  // 2: two-step; moving on without a reason is refused with 'required input'
  await page.locator('[data-option="same"] input').check();
  await page.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  await expect(page.getByTestId("scene-problem")).toHaveCount(0);
  await page.getByTestId("next").click();
  expect(await baseText(page.getByTestId("scene-problem"))).toBe("理由を書いてください。");
  await page.getByTestId("reason").locator("textarea").fill("溶けても水と食塩はなくならないから");
  await page.getByTestId("next").click();
  await expect(page.getByTestId("progress")).toContainText("3 / 5");
  await expect.poll(() => e2eDb().response.count({ where: { activityId: activity.id, userId: student.id } })).toBe(2);

  // the network goes: two scenes are answered offline and stay queued on the device
  await context.setOffline(true);
  await page.locator('[data-option="clear"] input').check();
  await expect(status(page)).toHaveAttribute("data-status", "queued");
  expect(await baseText(status(page))).toContain("オフライン");
  await page.getByTestId("next").click();
  await page.locator('[data-option="out"] input').check();
  await page.locator('[data-testid="second-step"] [data-option="oxygen"] input').check();
  await page.getByTestId("reason").locator("textarea").fill("空気の中の酸素が使われてなくなるから");
  await page.getByTestId("next").click();
  await expect(status(page)).toHaveAttribute("data-status", "queued");
  const stored = () => e2eDb().response.count({ where: { activityId: activity.id, userId: student.id } });
  expect(await stored()).toBe(2);

  // back online: the queue is sent, each answer once
  await context.setOffline(false);
  await expect(status(page)).toHaveAttribute("data-status", "saved", { timeout: 20_000 });
  expect(await stored()).toBe(4);

  // 5: free text, then the finish screen and the answers
  await page.locator("textarea").fill("重さは変わらないと思う人が多かった");
  await page.getByTestId("next").click();
  await expect(page.getByTestId("solo-done")).toBeVisible();
  await expect(status(page)).toHaveAttribute("data-status", "saved");
  const rows = await e2eDb().response.findMany({
    where: { activityId: activity.id, userId: student.id },
    orderBy: { scenePosition: "asc" },
  });
  expect(rows.map((r) => r.scenePosition)).toEqual([0, 1, 2, 3, 4]);
  expect(rows.every((r) => r.mode === "self" && r.counterbalanceGroup === "A")).toBe(true);
  expect(rows[2]!.answer).toEqual({ choice: "clear" });

  await page.getByTestId("see-answers").click();
  await expect(page.getByTestId("answer-review").locator("li")).toHaveCount(5);
  await expect(page.getByTestId("answer-review").locator('[data-option="clear"] input')).toBeChecked();

  // resuming on another visit starts at the finish (everything answered), with the answers kept
  await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await expect(page.getByTestId("solo-done")).toBeVisible();
  await page.getByTestId("back-to-last").click();
  await expect(page.locator("textarea")).toHaveValue("重さは変わらないと思う人が多かった");
});

test("solo: 'not self mode' when the activity is not in self mode", async ({ page }) => {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  await signInAs(page, students[0]!.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await expect(page.getByTestId("solo-problem")).toHaveAttribute("data-problem", "notSelfMode");
  expect(await baseText(page.getByTestId("solo-problem"))).toBe("いまは一人で取り組むモードではありません。");
});

test("teacher solo: a teacher-actor activity saves the teacher's answers; a student activity is a try-out that writes nothing", async ({
  page,
}) => {
  const { teacher, school } = await makeSchool(0);
  const own = await createActivityFromTemplate(e2eDb(), {
    templateId: "teacher-lesson-reflection",
    schoolId: school.id,
    mode: "self",
  });
  const kids = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/teacher/activities/solo/${own.id}`);
  const first = page.getByTestId("scene");
  await expect(first).toBeVisible();
  const type = await first.getAttribute("data-scene-type");
  if (type === "scale") await first.locator('input[value="4"]').check();
  else if (type === "free_text") await first.locator("textarea").fill("よく話し合えた");
  else await first.locator("input").first().check();
  await page.getByTestId("next").click();
  await expect.poll(() => e2eDb().response.count({ where: { activityId: own.id, userId: teacher.id } })).toBe(1);

  await page.goto(`/dashboard/teacher/activities/solo/${kids.id}`);
  await page.getByTestId("next").click();
  await page.locator('[data-option="same"] input').check();
  await page.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  await page.getByTestId("reason").locator("textarea").fill("ためし");
  await page.getByTestId("next").click();
  await expect(page.getByTestId("progress")).toContainText("3 / 5");
  await page.waitForTimeout(1500);
  expect(await e2eDb().response.count({ where: { activityId: kids.id } })).toBe(0);
});

test("fault: a student offline for ten minutes answers three scenes; everything arrives after reconnecting", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  await signInAs(page, students[0]!.email!, TEST_PASSWORD);
  await page.clock.install(); // ten minutes pass on the page's clock, not the test's
  await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await page.getByTestId("next").click();
  await expect(page.getByTestId("progress")).toContainText("2 / 5");
  await context.setOffline(true);
  await page.locator('[data-option="less"] input').check();
  await page.locator('[data-testid="second-step"] [data-option="unsure"] input').check();
  await page.getByTestId("reason").locator("textarea").fill("とけて見えなくなるから");
  await page.getByTestId("next").click();
  await page.locator('[data-option="cloudy"] input').check();
  await page.getByTestId("next").click();
  await page.locator('[data-option="burn"] input').check();
  await page.locator('[data-testid="second-step"] input').first().check();
  await page.getByTestId("reason").locator("textarea").fill("ふたをしても空気があるから");
  await page.getByTestId("next").click();
  await expect(status(page)).toHaveAttribute("data-status", "queued");
  await page.clock.runFor(10 * 60_000);
  await expect(status(page)).toHaveAttribute("data-status", "queued");
  expect(await e2eDb().response.count({ where: { activityId: activity.id } })).toBe(1);
  await context.setOffline(false);
  await expect(status(page)).toHaveAttribute("data-status", "saved", { timeout: 20_000 });
  const rows = await e2eDb().response.findMany({
    where: { activityId: activity.id },
    orderBy: { scenePosition: "asc" },
  });
  expect(rows.map((r) => r.scenePosition)).toEqual([0, 1, 2, 3]);
  expect(rows[1]!.answer).toMatchObject({ first: "less", second: "unsure" });
});

test("solo: a scene's 保存しました stays with that scene; the next scene starts without it", async ({ page }) => {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  await signInAs(page, students[0]!.email!, TEST_PASSWORD);
  await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await page.getByTestId("next").click();
  await page.locator('[data-option="same"] input').check();
  await page.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  await page.getByTestId("reason").locator("textarea").fill("なくならないから");
  await page.getByTestId("next").click();
  await expect(page.getByTestId("progress")).toContainText("3 / 5");
  await page.locator('[data-option="clear"] input').check();
  await expect(status(page)).toHaveAttribute("data-status", "saved");
  expect(await baseText(status(page))).toBe("保存しました");

  // moving on: the new scene says nothing about saving until something of its own is saved
  await page.getByTestId("next").click();
  await expect(page.getByTestId("progress")).toContainText("4 / 5");
  await expect.poll(() => e2eDb().response.count({ where: { activityId: activity.id } })).toBe(3);
  await expect(status(page)).toHaveAttribute("data-status", "idle");
  expect(await baseText(status(page))).not.toContain("保存しました");
  // and back on the previous scene, nothing stale either
  await page.getByTestId("previous").click();
  await expect(page.getByTestId("progress")).toContainText("3 / 5");
  await expect(status(page)).toHaveAttribute("data-status", "idle");
  await page.locator('[data-option="cloudy"] input').check();
  await expect(status(page)).toHaveAttribute("data-status", "saved");
});
