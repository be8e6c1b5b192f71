import { expect, test } from "@playwright/test";
import { E2E_PORT } from "./config";
import { AppInstance, guideAcrossInstances } from "./instance";
import { e2eDb } from "./db";

/** The app server dies (kill -9) in the middle of a live session: nothing acknowledged is lost, clients resume by themselves. */
const crashing = new AppInstance(E2E_PORT + 50);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await crashing.start();
});
test.afterAll(() => crashing.stop());

test("fault: kill -9 of the app mid-session; answers arrive exactly once after the restart and the student follows again", async ({ browser }) => {
  test.setTimeout(180_000);
  const { activity, scenes, students, teacherPage, kid, close } = await guideAcrossInstances(browser, crashing.url);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[2]!.id);
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
  const rows = await e2eDb().response.findMany({ where: { activityId: activity.id, userId: students[0]!.id } });
  expect(rows).toHaveLength(1);
  expect(rows[0]!.answer).toEqual({ choice: "cloudy" });

  // the live screen comes back by itself (stream reconnect or polling) and follows the teacher
  await teacherPage.getByTestId("guide-next").click();
  await expect(live).toHaveAttribute("data-scene-id", scenes[3]!.id, { timeout: 30_000 });
  await close();
});
