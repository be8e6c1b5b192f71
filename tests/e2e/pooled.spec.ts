import { type Browser, expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { startPgBouncer, type RunningPgBouncer } from "../support/pgbouncer";
import { devices } from "./browsers";
import { E2E_DATABASE_URL, E2E_PG_PORT, E2E_PORT } from "./config";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";
import { sceneOf } from "./guide";
import { signInAs } from "./helpers";
import { AppInstance } from "./instance";

/**
 * A production server (server/main.ts) whose DATABASE_URL is PgBouncer 1.18 in transaction mode
 * (tests/support/pgbouncer.ts) and DATABASE_DIRECT_URL the database, as an operator scales out
 * (docs/scaling.md "What runs where"): a teacher and three students on it run a live lesson —
 * start, 次へ, pause, answers, results — as on a direct connection.
 */
const POOLER_PORT = E2E_PG_PORT + 3;
let pooler: RunningPgBouncer | undefined;
let pooled: AppInstance;
const device = devices();

test.beforeAll(async () => {
  test.setTimeout(150_000);
  pooler = await startPgBouncer(E2E_DATABASE_URL, POOLER_PORT);
  const url = new URL(E2E_DATABASE_URL);
  url.port = String(POOLER_PORT);
  pooled = new AppInstance(E2E_PORT + 45, url.toString(), { DATABASE_DIRECT_URL: E2E_DATABASE_URL });
  await pooled.start();
});
test.afterAll(async () => {
  await pooled?.stop();
  await pooler?.stop();
});

async function signedInThere(browser: Browser, email: string) {
  const context = await device(browser, { baseURL: pooled.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signInAs(page, email, TEST_PASSWORD);
  return page;
}

test("behind a transaction pooler: start, 次へ, pause, three students answering and the results", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const { teacher, school, students } = await makeSchool(3);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const choice = scenes.findIndex((s) => s.type === "single_choice");

  const teacherPage = await signedInThere(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  const kids: Page[] = [];
  for (const s of students) {
    const page = await signedInThere(browser, s.email!);
    await page.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(page.getByTestId("standby")).toBeVisible();
    kids.push(page);
  }
  await expect(kids[0]!.getByTestId("live-session")).toHaveAttribute("data-transport", "stream");

  await teacherPage.getByTestId("start-session").click();
  for (const kid of kids) await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", scenes[0]!.id);
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-connected", "3");
  // 次へ, scene by scene, up to the single-choice one: every student follows each
  for (const scene of scenes.slice(1, choice + 1)) {
    await teacherPage.getByTestId("guide-next").click();
    await expect(teacherPage.getByTestId("guide-console")).toHaveAttribute("data-scene-id", scene.id);
    for (const kid of kids) await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", scene.id);
  }

  // pause and back
  const pause = teacherPage.getByTestId("toggle-pause");
  await pause.click();
  for (const kid of kids) await expect(kid.getByTestId("paused")).toBeVisible();
  await pause.click();
  for (const kid of kids) await expect(kid.getByTestId("paused")).toHaveCount(0);

  // they answer together; the teacher's count and results follow
  await Promise.all(
    kids.map(async (kid, i) => {
      await kid.locator(`[data-option="${i === 2 ? "cloudy" : "clear"}"] input`).check();
      await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 20_000 });
    }),
  );
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-answered", "3");
  await teacherPage.getByTestId("toggle-results").click();
  const results = teacherPage.getByTestId("results");
  await expect(results).toHaveAttribute("data-total", "3");
  await expect(results.locator('[data-option="clear"]')).toHaveAttribute("data-count", "2");
  await expect(results.locator('[data-option="cloudy"]')).toHaveAttribute("data-count", "1");

  // the instance is ready, its live bus listening on the direct connection
  const ready = await fetch(`${pooled.url}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: "ok", database: "ok", migrations: "current", live: "ok" });
});
