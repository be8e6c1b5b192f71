import { expect, test } from "@playwright/test";
import { createPrismaClient } from "@/platform/db/client";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { ensureEmbeddedPostgres, recreateDatabase, stopImmediately } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";
import { E2E_PG_PORT, E2E_PORT } from "./config";
import { AppInstance, guideAcrossInstances } from "./instance";
import { expectExactlyOnce, recordAcks } from "./acks";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/**
 * The app server dies (kill -9) in the middle of a live session: nothing acknowledged is lost, clients resume by themselves.
 * Its hooks are the describe's own: a file-level beforeAll would also run in the worker of the other test
 * (fully parallel), start a second server on the same port, and the kill could hit the one that lost the port.
 */
test.describe("the app is killed", () => {
  const crashing = new AppInstance(E2E_PORT + 50);

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await crashing.start();
  });
  test.afterAll(() => crashing.stop());

  test("fault: kill -9 of the app mid-session; answers arrive exactly once after the restart and the student follows again", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const { activity, scenes, students, teacherPage, kid, close } = await guideAcrossInstances(browser, crashing.url);
    await teacherPage.getByTestId("start-session").click();
    await teacherPage.getByTestId("guide-jump").selectOption(scenes[2]!.id);
    const recorded = recordAcks(kid);
    await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
    const live = kid.getByTestId("live-session");
    await expect(live).toHaveAttribute("data-scene-id", scenes[2]!.id);
    await kid.locator('[data-option="clear"] input').check();
    const status = kid.getByTestId("save-status");
    await expect(status).toHaveAttribute("data-status", "saved");

    await crashing.crash();
    // the student changes their mind while the server is down: kept on the device
    await kid.locator('[data-option="cloudy"] input').check();
    await expect(status).toHaveAttribute("data-status", "queued");
    await crashing.start();
    await expect(status).toHaveAttribute("data-status", "saved", { timeout: 60_000 });
    // the first answer was acknowledged before the crash, the changed one after the restart: one row, the changed answer
    await expectExactlyOnce(
      e2eDb(),
      { activityId: activity.id, userId: students[0]!.id },
      recorded,
      new Map([[scenes[2]!.id, { choice: "cloudy" }]]),
    );

    // the live screen comes back by itself (stream reconnect or polling) and follows the teacher
    await teacherPage.getByTestId("guide-next").click();
    await expect(live).toHaveAttribute("data-scene-id", scenes[3]!.id, { timeout: 30_000 });
    await close();
  });
});

/**
 * PostgreSQL stops at once (pg_ctl stop -m immediate) while a student answers,
 * then comes back. On a cluster and app instance of its own, so the rest of
 * the suite, running in parallel, keeps its database.
 */
test.describe("PostgreSQL stops immediately", () => {
  const dir = ".data/pg-fault";
  const port = E2E_PG_PORT + 5;
  let pgCluster: Awaited<ReturnType<typeof ensureEmbeddedPostgres>>;
  let app: AppInstance;
  let db: ReturnType<typeof createPrismaClient>;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    pgCluster = await ensureEmbeddedPostgres({ dir, port, portEnv: "E2E_PG_PORT" });
    await recreateDatabase(pgCluster.adminUrl, "manabiya_fault");
    const url = pgCluster.urlFor("manabiya_fault");
    await migrate(url);
    db = createPrismaClient(url, 2);
    await syncTemplates(db, await readTemplateFiles());
    app = new AppInstance(E2E_PORT + 60, url);
    await app.start();
  });
  test.afterAll(async () => {
    await app?.stop();
    await db?.$disconnect();
    await pgCluster?.stop();
  });

  test("fault: the database stops mid-activity; the app recovers by itself and the queued answers arrive once", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const { school, students } = await makeSchool(1, db);
    const student = students[0]!;
    const activity = await createActivityFromTemplate(db, {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    const recorded = recordAcks(page);
    await signInAs(page, student.email!, TEST_PASSWORD);
    await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
    const status = page.getByTestId("save-status");
    await page.getByTestId("next").click(); // the info scene
    await page.locator('[data-option="same"] input').check();
    await page.locator('[data-testid="second-step"] [data-option="sure"] input').check();
    await page.getByTestId("reason").locator("textarea").fill("なくならないから");
    await page.getByTestId("next").click();
    // scene 2's answer is stored (its 保存しました stays with scene 2)
    await expect.poll(() => db.response.count({ where: { activityId: activity.id, userId: student.id } })).toBe(2);

    await stopImmediately(dir);
    // the operational endpoints tell a load balancer: alive, but not ready
    await expect.poll(() => fetch(`${app.url}/readyz`).then((r) => r.status), { timeout: 30_000 }).toBe(503);
    expect(await fetch(`${app.url}/readyz`).then((r) => r.json())).toMatchObject({ database: "unreachable" });
    expect(await fetch(`${app.url}/healthz`).then((r) => r.status)).toBe(200);
    // answered while the database is gone: refused with a server error, kept on the device
    await page.locator('[data-option="cloudy"] input').check();
    await expect(status).toHaveAttribute("data-status", "queued", { timeout: 20_000 });
    await page.locator('[data-option="clear"] input').check();
    await expect(status).toHaveAttribute("data-status", "queued");

    pgCluster = await ensureEmbeddedPostgres({ dir, port, portEnv: "E2E_PG_PORT" });
    await expect(status).toHaveAttribute("data-status", "saved", { timeout: 60_000 });
    await expect.poll(() => fetch(`${app.url}/readyz`).then((r) => r.status), { timeout: 30_000 }).toBe(200);
    const scenes = await db.activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    // what the student answered, the last choice of scene 2 given while the database was down
    const typed = new Map<string, unknown>([
      [scenes[0]!.id, expect.anything()],
      [scenes[1]!.id, { first: "same", second: "sure", reason: "なくならないから" }],
      [scenes[2]!.id, { choice: "clear" }],
    ]);
    const mine = { activityId: activity.id, userId: student.id };
    await expectExactlyOnce(db, mine, recorded, typed);

    // the same app process (never restarted) serves pages and saves again
    await page.getByTestId("next").click();
    await page.locator('[data-option="out"] input').check();
    await page.locator('[data-testid="second-step"] [data-option="oxygen"] input').check();
    await page.getByTestId("reason").locator("textarea").fill("酸素がなくなるから");
    await page.getByTestId("next").click();
    await expect
      .poll(() => db.response.count({ where: { activityId: activity.id, userId: student.id } }), { timeout: 20_000 })
      .toBe(4);
    typed.set(scenes[3]!.id, { first: "out", second: "oxygen", reason: "酸素がなくなるから" });
    await expectExactlyOnce(db, mine, recorded, typed);
    await page.goto("/dashboard/student/home");
    await expect(page.getByTestId("my-activities")).toBeVisible();
    await context.close();
  });
});
