import { expect, test } from "@playwright/test";
import { expectExactlyOnce, recordAcks } from "./acks";
import { E2E_PORT } from "./config";
import { e2eDb } from "./db";
import { AppInstance, guideAcrossInstances, scenesSeen, watchScenes } from "./instance";

/**
 * Two production servers (server/main.ts) on one database (as behind a load balancer): a
 * student connected to the second follows a teacher connected to the first,
 * in order, through PostgreSQL LISTEN/NOTIFY.
 */
const second = new AppInstance(E2E_PORT + 40);
const SECOND_URL = second.url;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await second.start();
});

test.afterAll(() => second.stop());

test("a student on instance B follows a teacher on instance A, in order, and their answer through B is stored exactly once", async ({
  browser,
}) => {
  const { activity, scenes, students, teacherPage, kid, close } = await guideAcrossInstances(browser, SECOND_URL);
  const recorded = recordAcks(kid);
  await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
  expect(kid.url().startsWith(SECOND_URL)).toBe(true);
  await expect(kid.getByTestId("live-session")).toHaveAttribute("data-transport", "stream");
  // every scene the student's screen shows, in order
  await watchScenes(kid);

  await teacherPage.getByTestId("start-session").click();
  await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes[0]!.id);
  for (const scene of scenes.slice(1)) {
    await teacherPage.getByTestId("guide-next").click();
    await expect(teacherPage.getByTestId("guide-console")).toHaveAttribute("data-scene-id", scene.id);
  }
  await expect(kid.getByTestId("live-session")).toHaveAttribute("data-scene-id", scenes.at(-1)!.id);
  const order = await scenesSeen(kid, scenes);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  expect(order.at(-1)).toBe(scenes.length - 1);

  // the teacher on A sees the student on B as connected
  await expect(teacherPage.getByTestId("live-counts")).toHaveAttribute("data-connected", "1");

  // the student answers the last scene (free text) through instance B: stored exactly once, as acknowledged
  await kid.locator("textarea.answer-text").fill("二台目から答えます");
  await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 20_000 });
  await expectExactlyOnce(
    e2eDb(),
    { activityId: activity.id, userId: students[0]!.id },
    recorded,
    new Map([[scenes.at(-1)!.id, { text: "二台目から答えます" }]]),
  );
  await close();
});
