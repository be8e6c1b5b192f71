import { expect, type Page, test } from "@playwright/test";
import { signedInBrowsers } from "./browsers";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText } from "./helpers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { sceneOf } from "./guide";

const signedIn = signedInBrowsers();

test("live session: three students follow the teacher, answer, see counts and results, lock, and reload onto the current scene", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, school, students } = await makeSchool(3);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await expect(teacherPage.getByTestId("guide-idle")).toBeVisible();

  // three students join before the start (one of them through polling, as behind a buffering proxy)
  const kids: Page[] = [];
  for (const [i, s] of students.entries()) {
    const page = await signedIn(browser, s.email!);
    await page.goto(`/dashboard/student/activities/session/${activity.id}${i === 2 ? "?live=poll" : ""}`);
    await expect(page.getByTestId("standby")).toBeVisible();
    kids.push(page);
  }
  await expect(kids[2]!.getByTestId("live-session")).toHaveAttribute("data-transport", "polling");

  await teacherPage.getByTestId("start-session").click();
  await expect(teacherPage.getByTestId("guide-console")).toHaveAttribute("data-scene-id", scenes[0]!.id);
  for (const kid of kids) await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", scenes[0]!.id);
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-connected", "3");

  // jump to the single-choice scene: every student follows
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[2]!.id);
  for (const kid of kids) await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", scenes[2]!.id);

  // they answer; the teacher's count follows
  const choose = async (kid: Page, option: string) => {
    await kid.locator(`[data-option="${option}"] input`).check();
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  };
  await choose(kids[0]!, "clear");
  await choose(kids[1]!, "clear");
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-answered", "2");
  await choose(kids[2]!, "cloudy");
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-answered", "3");

  // results: anonymous by default, names on request
  await teacherPage.getByTestId("toggle-results").click();
  const results = teacherPage.getByTestId("results");
  await expect(results).toHaveAttribute("data-total", "3");
  await expect(results.locator('[data-option="clear"]')).toHaveAttribute("data-count", "2");
  await expect(results.locator('[data-option="cloudy"]')).toHaveAttribute("data-count", "1");
  await expect(results.locator(".result-names")).toHaveCount(0);
  await teacherPage.getByTestId("toggle-names").click();
  await expect(results.locator('[data-option="clear"] .result-names')).toContainText("試験 花子1");

  // lock: no more answers to this scene
  await teacherPage.getByTestId("toggle-lock").click();
  for (const kid of kids) await expect(kid.getByTestId("locked")).toBeVisible();
  await expect(kids[0]!.locator('[data-option="cloudy"] input')).toBeDisabled();
  const locked = await kids[0]!.evaluate(
    async ([activityId, sceneId]) =>
      (
        await fetch("/api/v1/answers", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            activityId,
            sceneId,
            answer: { choice: "cloudy" },
            clientRevision: 99,
            idempotencyKey: "locked-attempt-1",
            mode: "guide",
          }),
        })
      ).json(),
    [activity.id, scenes[2]!.id],
  );
  expect(locked).toMatchObject({ ok: false, reason: "locked" });
  expect(
    (
      await e2eDb().response.findUniqueOrThrow({
        where: { userId_sceneId: { userId: students[0]!.id, sceneId: scenes[2]!.id } },
      })
    ).answer,
  ).toEqual({ choice: "clear" });

  // the free-text scene; a student reloads mid-session and finds the current scene with their answer
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[4]!.id);
  await expect(sceneOf(kids[1]!)).toHaveAttribute("data-scene-id", scenes[4]!.id);
  await kids[1]!.locator("textarea").fill("友だちは重さが変わらないと考えていた");
  await expect(kids[1]!.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await kids[1]!.reload();
  await expect(sceneOf(kids[1]!)).toHaveAttribute("data-scene-id", scenes[4]!.id);
  await expect(kids[1]!.locator("textarea")).toHaveValue("友だちは重さが変わらないと考えていた");

  // end: students go back to waiting
  await teacherPage.getByTestId("end-session").click();
  await teacherPage.locator('dialog[open] [data-testid="confirm-ok"]').click();
  for (const kid of kids) await expect(sceneOf(kid)).toHaveAttribute("data-status", "ended");
  expect(await baseText(kids[0]!.getByTestId("standby"))).toContain("終わりました");
  expect(await e2eDb().response.count({ where: { activityId: activity.id } })).toBe(4);
});

test("student home follows a mode change without a reload", async ({ browser }) => {
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
    title: "モード確認",
  });
  const kid = await signedIn(browser, students[0]!.email!);
  const card = kid.locator(`[data-activity-id="${activity.id}"]`);
  await expect(card).toHaveAttribute("data-mode", "standby");
  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto("/dashboard/teacher/activities");
  await teacherPage.locator(`tr[data-activity-id="${activity.id}"] select`).selectOption("self");
  await expect(card).toHaveAttribute("data-mode", "self");
  await expect(card.getByTestId("go-start")).toBeVisible();
});

test("guide and session screens of another school's activity: no access", async ({ browser }) => {
  const mine = await makeSchool(1);
  const theirs = await makeSchool(0);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: theirs.school.id,
    mode: "guide",
  });
  const teacherPage = await signedIn(browser, mine.teacher.email!);
  for (const path of [
    `/dashboard/teacher/activities/guide/${activity.id}`,
    `/dashboard/teacher/activities/solo/${activity.id}`,
  ]) {
    await teacherPage.goto(path);
    await expect(teacherPage.getByTestId("error-page")).toBeVisible();
  }
  const kid = await signedIn(browser, mine.students[0]!.email!);
  for (const path of [
    `/dashboard/student/activities/session/${activity.id}`,
    `/dashboard/student/activities/solo/${activity.id}`,
    `/dashboard/student/activities/response/${activity.id}`,
  ]) {
    await kid.goto(path);
    await expect(kid.getByTestId("error-page")).toBeVisible();
  }
  const stream = await kid.request.get(`/api/v1/live/${activity.id}/state`);
  expect(stream.status()).toBe(404);
});
