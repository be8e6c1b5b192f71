import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { baseText } from "./helpers";
import { e2eDb, makeSchool } from "./db";
import { signedInBrowsers } from "./browsers";
import { FULL_CHROMIUM } from "../../scripts/lib/chromium";

/**
 * A page the browser restores (Back/Forward from the back/forward cache or the router's cache, a second tab,
 * a reload while a save is in flight) saves like a fresh one: the answer chosen last is the one stored, and the
 * screen says "saved" only for the answer the server holds (when another device's newer answer stays, it is shown
 * with a message).
 */

const signedIn = signedInBrowsers();
const status = (page: Page) => page.getByTestId("save-status");
const point = (page: Page, value: number) => page.locator(`.scale-point input[value="${value}"]`);

async function selfActivity() {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: activity.id, position: 0 } });
  return { student: students[0]!, activity, scene, url: `/dashboard/student/activities/solo/${activity.id}` };
}

/** The value of the first scene's answer the server holds (null: none). */
async function storedValue(userId: string, sceneId: string): Promise<number | null> {
  const row = await e2eDb().response.findUnique({
    where: { userId_sceneId: { userId, sceneId } },
    select: { answer: true },
  });
  return (row?.answer as { value?: number } | null)?.value ?? null;
}

/** Reloads: the player opens on the first scene not answered yet (the second), and goes back to the first. */
async function reloadToFirstScene(page: Page) {
  await page.reload();
  await backToFirstScene(page);
}

/** A fresh load opens on the first scene not answered yet (the second): back to the first. */
async function backToFirstScene(page: Page) {
  await expect(page.getByTestId("progress")).toContainText("2 / 4");
  await page.getByTestId("previous").click();
  await expect(page.getByTestId("progress")).toContainText("1 / 4");
}

/**
 * A page the browser brought back (Back, Forward): the player opens where the page it restores opened, on the first
 * scene when the cached page held no answer yet, on the second (the first not answered) when it held the refreshed
 * one; which of the two the router keeps depends on timing, so this goes to the first scene from either.
 */
async function onFirstSceneAfterRestore(page: Page) {
  const progress = page.getByTestId("progress");
  await expect(progress).toContainText(/[12] \/ 4/);
  if ((await progress.textContent())?.includes("2 / 4")) await backToFirstScene(page);
}

/** Chooses `value` and waits until the screen says saved. */
async function choose(page: Page, value: number) {
  await point(page, value).check();
  await expect(status(page)).toHaveAttribute("data-status", "saved");
}

test("left by an in-app link and back with the browser's Back: the page shows the stored answer, and a new choice is the one stored", async ({
  browser,
}) => {
  const { student, scene, url } = await selfActivity();
  const kid = await signedIn(browser, student.email!);
  await kid.goto(url);
  await choose(kid, 2);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(2);

  // home by the app's own link (the router), then the browser's Back: the router restores the page it had
  await kid.locator(".top-bar-home").click();
  await expect(kid).toHaveURL(/\/dashboard\/student\/home$/);
  await kid.goBack();
  await expect(kid).toHaveURL(new RegExp(`${url}$`));
  await onFirstSceneAfterRestore(kid);
  await expect(point(kid, 2)).toBeChecked();

  await choose(kid, 4);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(4);
  // and Forward and Back again: a third choice is stored too
  await kid.goForward();
  await expect(kid).toHaveURL(/\/dashboard\/student\/home$/);
  await kid.goBack();
  await expect(kid).toHaveURL(new RegExp(`${url}$`));
  await onFirstSceneAfterRestore(kid);
  await expect(point(kid, 4)).toBeChecked();
  await choose(kid, 5);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(5);
  await reloadToFirstScene(kid);
  await expect(point(kid, 5)).toBeChecked();
});

test("a page restored from the back/forward cache after another tab saved: the choice made on it is the one stored", async ({
  playwright,
  launchOptions,
}) => {
  const { student, scene, url } = await selfActivity();
  // Playwright starts Chromium without its back/forward cache unless told otherwise, and the headless shell has none:
  // the full browser
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    executablePath: FULL_CHROMIUM,
    ignoreDefaultArgs: ["--disable-back-forward-cache"],
  });
  const kid = await signedIn(browser, student.email!);
  // the page as a browser may keep it in its back/forward cache: Chromium keeps no page sent with
  // "no-store" (as the app's dynamic pages are) unless its newer rules allow it, so the test lets it
  await kid.route(`**${url}`, async (route) => {
    if (route.request().resourceType() !== "document") return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), "cache-control": "private, no-cache" } });
  });
  await kid.goto(url);
  await choose(kid, 2);
  await kid.evaluate(() => {
    (window as unknown as { restored: boolean }).restored = false;
    window.addEventListener("pageshow", (e) => {
      if (e.persisted) (window as unknown as { restored: boolean }).restored = true;
    });
  });
  // a full page load elsewhere (the page goes into the back/forward cache when the browser keeps it)
  await kid.goto("/dashboard/student/home");
  // meanwhile a second tab of the same browser changes the answer
  const other = await kid.context().newPage();
  await other.goto(url);
  await backToFirstScene(other);
  await expect(point(other, 2)).toBeChecked();
  await choose(other, 3);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(3);
  await other.close();

  // a page restored from the cache fires no load event: wait for the navigation's commit
  await kid.goBack({ waitUntil: "commit" });
  await expect(kid).toHaveURL(new RegExp(`${url}$`));
  // the very page that was left, from the back/forward cache (not loaded again), shows the other tab's answer
  expect(await kid.evaluate(() => (window as unknown as { restored?: boolean }).restored)).toBe(true);
  await expect(point(kid, 3)).toBeChecked();
  await choose(kid, 4);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(4);
  await reloadToFirstScene(kid);
  await expect(point(kid, 4)).toBeChecked();
  await browser.close();
});

test("two tabs open on the same activity: the choice made last, in either tab, is the one stored", async ({
  browser,
}) => {
  const { student, scene, url } = await selfActivity();
  const first = await signedIn(browser, student.email!);
  await first.goto(url);
  const second = await first.context().newPage();
  await second.goto(url);
  await choose(second, 2);
  await choose(second, 3);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(3);
  // the first tab, loaded before those saves, is used again
  await first.bringToFront();
  await choose(first, 4);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(4);
  await second.bringToFront();
  await choose(second, 1);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(1);
  await reloadToFirstScene(first);
  await expect(point(first, 1)).toBeChecked();
});

test("a reload while a save is in flight: the answer chosen after the reload is the one stored", async ({
  browser,
}) => {
  const { student, scene, url } = await selfActivity();
  const kid = await signedIn(browser, student.email!);
  await kid.goto(url);
  // the first save is held on its way until the page has been reloaded and answered again
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let first = true;
  await kid.context().route("**/api/v1/answers", async (route) => {
    if (!first) return route.continue();
    first = false;
    await held;
    await route.continue().catch(() => {});
  });
  await point(kid, 2).check();
  await expect(status(kid)).toHaveAttribute("data-status", "saving");
  await kid.reload();
  await expect(point(kid, 2)).toBeChecked();
  await choose(kid, 4);
  release();
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(4);
  await reloadToFirstScene(kid);
  await expect(point(kid, 4)).toBeChecked();
});

test("another device saved a newer answer: the older page's save is not called saved; the stored answer is shown with a message, and choosing again stores it", async ({
  browser,
}) => {
  const { student, scene, url } = await selfActivity();
  const tablet = await signedIn(browser, student.email!);
  await tablet.goto(url);
  const laptop = await signedIn(browser, student.email!);
  await laptop.goto(url);
  await choose(laptop, 2);
  await choose(laptop, 3);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(3);

  // the tablet, loaded before, sends an older revision: the server keeps the laptop's and says so
  // (clicked, not checked: the page puts the stored answer back once the server has answered)
  await point(tablet, 5).click();
  await expect(status(tablet)).toHaveAttribute("data-status", "replaced");
  expect(await baseText(status(tablet))).toContain("ほかの画面");
  await expect(point(tablet, 3)).toBeChecked();
  expect(await storedValue(student.id, scene.id)).toBe(3);
  // chosen again, knowing: stored
  await choose(tablet, 5);
  await expect.poll(() => storedValue(student.id, scene.id)).toBe(5);
});
