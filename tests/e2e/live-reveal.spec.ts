import { expect, type Page, test } from "@playwright/test";
import { devices, signedInBrowsers } from "./browsers";
import { keyedDissolve, makeSchool } from "./db";
import { expectAccessible } from "./helpers";
import { projectorLinkFrom, sceneOf } from "./guide";

/**
 * 「正解を見せる」 in a live lesson: a teacher, the classroom screen and three students (one right, one wrong, one
 * who joins after the reveal without answering). Before the reveal no screen, page source or stream holds the key;
 * after it each student sees their own ○/× and the key, the projector's chart marks the correct option, and so does
 * the stats page. Hiding it and moving on take it away; a scene without a key offers no button.
 */
const signedIn = signedInBrowsers();
const device = devices();
const PHONE = { width: 360, height: 740 };

/** What a student's stream and poll send now: the first event of the stream and the polled state, as text. */
async function livePayloads(page: Page, activityId: string): Promise<string> {
  const streamed = await page.evaluate(async (id) => {
    const controller = new AbortController();
    const res = await fetch(`/api/v1/live/${id}/events`, { signal: controller.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("data:") || !text.slice(text.indexOf("data:")).includes("\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    return text;
  }, activityId);
  const polled = await (await page.request.get(`/api/v1/live/${activityId}/state`)).text();
  expect(streamed).toContain('"sceneId"');
  return streamed + polled;
}

test("正解を見せる: nothing before it; then each student's own ○/×, the key, the projector's chart and the stats marked", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { teacher, school, students } = await makeSchool(3);
  // the teacher marks 「すき通っていて…」 correct
  const { activity, scenes, choice } = await keyedDissolve(school.id);
  const text = scenes[4]!;

  const teacherPage = await signedIn(browser, teacher.email!);
  await teacherPage.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await teacherPage.getByTestId("start-session").click();
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  const console_ = teacherPage.getByTestId("guide-console");
  await expect(console_).toHaveAttribute("data-scene-id", choice.id);

  const link = await projectorLinkFrom(teacherPage);
  const projector = await (await device(browser, { viewport: { width: 1280, height: 720 } })).newPage();
  await projector.goto(link);
  const screen = projector.getByTestId("projector-live");
  await expect(screen).toHaveAttribute("data-scene-id", choice.id);

  const join = async (email: string) => {
    const page = await signedIn(browser, email, PHONE);
    await page.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(sceneOf(page)).toHaveAttribute("data-scene-id", choice.id);
    return page;
  };
  const right = await join(students[0]!.email!);
  const wrong = await join(students[1]!.email!);
  for (const [kid, option] of [
    [right, "clear"],
    [wrong, "cloudy"],
  ] as const) {
    await kid.locator(`[data-option="${option}"] input`).check();
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  }
  await teacherPage.getByTestId("toggle-results").click();
  const bars = projector.getByTestId("projector-results");
  await expect(bars.locator('[data-option="clear"]')).toHaveAttribute("data-count", "1");

  // before the reveal: no mark, no key, on the screen, in the page or in what the stream sends
  for (const kid of [right, wrong]) {
    await expect(kid.getByTestId("live-verdict")).toHaveCount(0);
    await expect(kid.locator("[data-correct]")).toHaveCount(0);
    expect(await kid.content()).not.toMatch(/\\?"correct\\?":\s*true/);
    const payload = await livePayloads(kid, activity.id);
    expect(payload).not.toContain("correct");
    expect(payload).toContain('"revealed":false');
  }
  await expect(projector.locator("[data-correct]")).toHaveCount(0);
  expect(await projector.content()).not.toMatch(/\\?"correct\\?":\s*true/);

  // 「正解を見せる」
  await teacherPage.getByTestId("toggle-reveal").click();
  await expect(teacherPage.getByTestId("toggle-reveal")).toHaveAttribute("aria-pressed", "true");
  await expect(right.getByTestId("live-verdict")).toHaveAttribute("data-verdict", "correct");
  await expect(wrong.getByTestId("live-verdict")).toHaveAttribute("data-verdict", "incorrect");
  for (const kid of [right, wrong]) {
    await expect(kid.locator('[data-option="clear"][data-correct="true"]')).toBeVisible();
    await expect(kid.locator("[data-correct]")).toHaveCount(1);
    // the stream still carries only that the answer is shown, never the key
    const payload = await livePayloads(kid, activity.id);
    expect(payload).toContain('"revealed":true');
    expect(payload).not.toContain("correct");
  }
  await expect(screen).toHaveAttribute("data-revealed", "true");
  await expect(bars.locator('[data-option="clear"]')).toHaveAttribute("data-correct", "true");
  await expect(bars.locator("[data-correct]")).toHaveCount(1);
  await expect(teacherPage.getByTestId("results").locator('[data-option="clear"]')).toHaveAttribute(
    "data-correct",
    "true",
  );
  await expectAccessible(right);
  await right.screenshot({ path: "test-results/live-reveal-student-phone.png", fullPage: true });
  await projector.screenshot({ path: "test-results/live-reveal-projector-1280.png" });

  // a student who joins after the reveal and did not answer: the key, no ○/×
  const late = await join(students[2]!.email!);
  await expect(late.getByTestId("live-verdict")).toHaveAttribute("data-verdict", "none");
  await expect(late.locator('[data-option="clear"][data-correct="true"]')).toBeVisible();

  // hidden again: the marks go
  await teacherPage.getByTestId("toggle-reveal").click();
  await expect(teacherPage.getByTestId("toggle-reveal")).toHaveAttribute("aria-pressed", "false");
  for (const kid of [right, wrong, late]) {
    await expect(kid.getByTestId("live-verdict")).toHaveCount(0);
    await expect(kid.locator("[data-correct]")).toHaveCount(0);
  }
  await expect(screen).toHaveAttribute("data-revealed", "false");
  await expect(projector.locator("[data-correct]")).toHaveCount(0);

  // shown again, then the next scene starts unrevealed; a scene without a key offers no button
  await teacherPage.getByTestId("toggle-reveal").click();
  await expect(right.getByTestId("live-verdict")).toHaveAttribute("data-verdict", "correct");
  await teacherPage.getByTestId("guide-jump").selectOption(text.id);
  await expect(console_).toHaveAttribute("data-scene-id", text.id);
  await expect(teacherPage.getByTestId("toggle-reveal")).toHaveCount(0);
  for (const kid of [right, wrong, late]) {
    await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", text.id);
    await expect(kid.getByTestId("live-verdict")).toHaveCount(0);
  }
  await expect(screen).toHaveAttribute("data-revealed", "false");
  // coming back to the scene: unrevealed until the teacher shows it again
  await teacherPage.getByTestId("guide-jump").selectOption(choice.id);
  await expect(sceneOf(right)).toHaveAttribute("data-scene-id", choice.id);
  await expect(teacherPage.getByTestId("toggle-reveal")).toHaveAttribute("aria-pressed", "false");
  await expect(right.getByTestId("live-verdict")).toHaveCount(0);
  await expect(screen).toHaveAttribute("data-scene-id", choice.id);
  await expect(screen).toHaveAttribute("data-revealed", "false");

  // the stats page marks the correct option
  await teacherPage.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  const stats = teacherPage.locator(`[data-scene-id="${choice.id}"]`);
  await expect(stats.locator('[data-testid="chart-table"] [data-option="clear"]')).toHaveAttribute(
    "data-correct",
    "true",
  );
  await expect(stats.locator('[data-testid="chart-table"] [data-correct]')).toHaveCount(1);
});
