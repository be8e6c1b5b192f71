import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText, signInAs } from "./helpers";
import { e2eDb, makeSchool, scenesOf, TEST_PASSWORD } from "./db";
import { devices, signedInBrowsers } from "./browsers";

/**
 * On the device, answers are never lost, never sent as someone else, and the screen says why (docs/security.md
 * "Answers are never lost").
 */

const device = devices();
const signedIn = signedInBrowsers();
const status = (page: Page) => page.getByTestId("save-status");
const isAnswerPost = (url: string, method: string) => method === "POST" && new URL(url).pathname === "/api/v1/answers";
/** Every answer request a page sends: its body, in order. */
function answerPosts(page: Page): string[] {
  const bodies: string[] = [];
  page.on("request", (r) => {
    if (isAnswerPost(r.url(), r.method())) bodies.push(r.postData() ?? "");
  });
  return bodies;
}
/** Every value the save status takes on a page, in order (recorded in the page: no value is missed between two looks). */
async function recordStatuses(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statuses: string[] }).statuses = seen;
    const look = () => {
      const now = document.querySelector('[data-testid="save-status"]')?.getAttribute("data-status") ?? "none";
      if (seen.at(-1) !== now) seen.push(now);
    };
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-status"],
    });
    look();
  });
  return () => page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
}

test("live two-step without a reason: no message while writing; on send a message naming the reason, nothing sent, nothing lost; with the reason it is saved", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[1]!.id);

  const kid = await signedIn(browser, students[0]!.email!);
  const posts = answerPosts(kid);
  await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
  const live = kid.getByTestId("live-session");
  await expect(live).toHaveAttribute("data-scene-id", scenes[1]!.id);
  await kid.locator('[data-option="same"] input').check();
  await kid.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  // the reason is missing: nothing is said while the student may still be writing it, and the answer is not sent
  await expect(kid.getByTestId("reason")).toBeVisible();
  await expect(kid.getByTestId("scene-problem")).toHaveCount(0);
  // they try to send it: the message names what is missing
  await kid.getByTestId("send-answer").click();
  await expect(kid.getByTestId("scene-problem")).toBeVisible();
  expect(await baseText(kid.getByTestId("scene-problem"))).toBe("理由を書いてください。");
  await expect(kid.getByTestId("reason").locator("textarea")).toHaveAttribute("aria-invalid", "true");

  // the teacher moves on and comes back: the choices are still there, the message too
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[2]!.id);
  await expect(live).toHaveAttribute("data-scene-id", scenes[2]!.id);
  await teacherPage.getByTestId("guide-jump").selectOption(scenes[1]!.id);
  await expect(live).toHaveAttribute("data-scene-id", scenes[1]!.id);
  await expect(kid.locator('[data-option="same"] input')).toBeChecked();
  await expect(kid.locator('[data-testid="second-step"] [data-option="sure"] input')).toBeChecked();
  await expect(kid.getByTestId("scene-problem")).toBeVisible();
  expect(posts).toEqual([]);
  expect(await e2eDb().response.count({ where: { activityId: activity.id } })).toBe(0);

  // with the reason: the message goes, the answer is saved as a guide answer
  await kid.getByTestId("reason").locator("textarea").fill("溶けても食塩はなくならないから");
  await expect(status(kid)).toHaveAttribute("data-status", "saved");
  await expect(kid.getByTestId("scene-problem")).toHaveCount(0);
  const row = await e2eDb().response.findUniqueOrThrow({
    where: { userId_sceneId: { userId: students[0]!.id, sceneId: scenes[1]!.id } },
  });
  expect(row).toMatchObject({
    mode: "guide",
    answer: { first: "same", second: "sure", reason: "溶けても食塩はなくならないから" },
  });
});

test("an answer the server refuses (4xx) is not retried: the text stays on screen and the message says what to fix", async ({
  browser,
}) => {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  const kid = await signedIn(browser, students[0]!.email!);
  const posts = answerPosts(kid);
  await kid.goto(`/dashboard/student/activities/solo/${activity.id}`);
  for (const _ of [1, 2]) {
    await kid.locator('.scale-point input[value="4"]').check();
    await kid.getByTestId("next").click();
  }
  await expect(kid.getByTestId("progress")).toContainText("3 / 4");
  // text with a character the database cannot store (as a broken keyboard or a paste may bring)
  const bad = "よくできた\u0000ところ";
  await kid.locator("textarea").evaluate((el, value) => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, bad);
  await expect(status(kid)).toHaveAttribute("data-status", "failed");
  expect(await baseText(status(kid))).toContain("保存できない文字");
  expect(await kid.locator("textarea").inputValue()).toBe(bad);
  // not retried, also when the browser says it is back online
  await kid.evaluate(() => window.dispatchEvent(new Event("online")));
  // fixed: saved
  await kid.locator("textarea").fill("よくできたところ");
  await expect(status(kid)).toHaveAttribute("data-status", "saved");
  expect(posts.filter((p) => p.includes("\\u0000"))).toHaveLength(1);
  const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: activity.id, position: 2 } });
  expect(
    (
      await e2eDb().response.findUniqueOrThrow({
        where: { userId_sceneId: { userId: students[0]!.id, sceneId: scene.id } },
      })
    ).answer,
  ).toEqual({ text: "よくできたところ" });
});

test("failed sends are retried with growing waits, and the screen says 'not saved yet' until one succeeds", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  const kid = await signedIn(browser, students[0]!.email!);
  await kid.goto(`/dashboard/student/activities/solo/${activity.id}`);
  const statuses = await recordStatuses(kid);
  // the first three sends never reach the server (the network drops them); the fourth does
  const attempts: number[] = [];
  await kid.route("**/api/v1/answers", async (route) => {
    attempts.push(Date.now());
    if (attempts.length <= 3) await route.abort("connectionreset");
    else await route.continue();
  });
  await kid.locator('.scale-point input[value="2"]').check();
  await expect(status(kid)).toHaveAttribute("data-status", "queued");
  expect(await baseText(status(kid))).toContain("まだ保存されていません");
  await expect(status(kid)).toHaveAttribute("data-status", "saved", { timeout: 30_000 });
  expect(attempts).toHaveLength(4);
  // waits of at least 1, 2 and 4 s (each drawn between half and all of 2, 4 and 8 s): a loaded machine only makes them longer
  const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
  expect(gaps[0]).toBeGreaterThanOrEqual(950);
  expect(gaps[1]).toBeGreaterThanOrEqual(1_950);
  expect(gaps[2]).toBeGreaterThanOrEqual(3_950);
  // from the first failure to the success, the screen said nothing but "not saved yet"
  const seen = await statuses();
  expect(seen.slice(seen.indexOf("queued"))).toEqual(["queued", "saved"]);
  expect(await e2eDb().response.count({ where: { activityId: activity.id, userId: students[0]!.id } })).toBe(1);
});

test("shared tablet: an answer queued by A is never sent as B nor shown to B, and is delivered as A when A signs in again", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { school, students } = await makeSchool(2);
  const [a, b] = [students[0]!, students[1]!];
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scenes = await scenesOf(activity.id);
  const tablet = await device(browser);

  // A answers while the answer API is out of reach from the tablet: the answers stay queued on it
  await tablet.route("**/api/v1/answers", (route) => route.abort("internetdisconnected"));
  const tabA = await tablet.newPage();
  await signInAs(tabA, a.email!, TEST_PASSWORD);
  await tabA.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await tabA.getByTestId("next").click();
  await tabA.locator('[data-option="same"] input').check();
  await tabA.locator('[data-testid="second-step"] [data-option="sure"] input').check();
  const canary = "Aさんの理由：重さは変わらない";
  await tabA.getByTestId("reason").locator("textarea").fill(canary);
  await tabA.getByTestId("next").click();
  await expect(status(tabA)).toHaveAttribute("data-status", "queued");

  // A signs out and B signs in on the same tablet (another tab); A's tab is still open
  const tabB = await tablet.newPage();
  await tabB.goto("/dashboard/student/home");
  await tabB.getByTestId("drawer-trigger").click();
  await tabB.getByTestId("sign-out").click();
  await expect(tabB).toHaveURL(/\/signin/);
  await signInAs(tabB, b.email!, TEST_PASSWORD);
  const sentByB = answerPosts(tabB);

  // the API is back; A's tab tries again: the request carries B's session, and must not be stored as B's
  await tablet.unroute("**/api/v1/answers");
  const retried = tabA.waitForResponse((r) => isAnswerPost(r.url(), r.request().method()));
  await tabA.evaluate(() => window.dispatchEvent(new Event("online")));
  expect((await retried).status()).toBe(401);
  await expect(status(tabA)).toHaveAttribute("data-status", "signedOut");
  expect(await e2eDb().response.count({ where: { userId: b.id } })).toBe(0);

  // B opens the activity on the tablet: nothing of A's is shown or sent
  await tabB.goto(`/dashboard/student/activities/solo/${activity.id}`);
  await expect(tabB.getByTestId("progress")).toContainText("1 / 5");
  await tabB.getByTestId("next").click();
  await expect(tabB.getByTestId("progress")).toContainText("2 / 5");
  await expect(tabB.locator("input:checked")).toHaveCount(0);
  expect(await tabB.content()).not.toContain(canary);
  // B's information scene, seen, is stored as B's (the 保存しました stays on that scene)
  await expect.poll(() => e2eDb().response.count({ where: { userId: b.id, activityId: activity.id } })).toBe(1);
  expect(sentByB.length).toBeGreaterThan(0);
  expect(sentByB.filter((body) => body.includes(canary) || body.includes(a.id))).toEqual([]);
  expect(await e2eDb().response.count({ where: { userId: b.id, sceneId: scenes[1]!.id } })).toBe(0);

  // A's tab is closed; B signs out, A signs in again: A's home delivers A's answers as A's
  await tabA.close();
  await tabB.getByTestId("drawer-trigger").click();
  await tabB.getByTestId("sign-out").click();
  await expect(tabB).toHaveURL(/\/signin/);
  await signInAs(tabB, a.email!, TEST_PASSWORD);
  await expect
    .poll(
      async () =>
        (
          await e2eDb().response.findUnique({
            where: { userId_sceneId: { userId: a.id, sceneId: scenes[1]!.id } },
            select: { answer: true },
          })
        )?.answer,
      { timeout: 20_000 },
    )
    .toEqual({ first: "same", second: "sure", reason: canary });
  expect(await e2eDb().response.count({ where: { userId: b.id, sceneId: scenes[1]!.id } })).toBe(0);
});
