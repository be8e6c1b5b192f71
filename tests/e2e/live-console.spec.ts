import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { baseText, expectAccessible } from "./helpers";
import { pickClass, sceneOf } from "./guide";

/**
 * The teacher's own console during a live lesson: the class's results beside the grid (whether or not the projector
 * shows them), and a student's answer in a side panel beside the grid (a sheet over it on a tablet or phone).
 */
const signedIn = signedInBrowsers();
const cell = (page: Page, id: string) => page.locator(`[data-testid="grid-student"][data-student-id="${id}"]`);
const PHONE = { width: 390, height: 844 };

/** A science-dissolve lesson of class 1年1組 with `students` students; `open` shows the teacher's console at a scene. */
async function lesson(browser: Parameters<typeof signedIn>[0], students = 2, lang?: "ja" | "ja-ruby" | "ja-kana") {
  const made = await makeSchool(students);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: made.school.id,
    mode: "standby",
  });
  const scenes = await scenesOf(activity.id);
  const open = async (viewport: { width: number; height: number }, sceneId: string) => {
    const page = await signedIn(browser, made.teacher.email!, viewport, lang ? { lang } : {});
    await page.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
    if (await page.getByTestId("start-session").isVisible()) {
      await pickClass(page, "1:1");
      await page.getByTestId("start-session").click();
    }
    await expect(page.getByTestId("guide-console")).toBeVisible();
    await page.getByTestId("guide-jump").selectOption(sceneId);
    await expect(page.getByTestId("guide-console")).toHaveAttribute("data-scene-id", sceneId);
    return page;
  };
  /** The student's answer to `scene`, as saved (the console reads it when it opens). */
  const answered = (student: number, scene: (typeof scenes)[number], answer: Record<string, string>) =>
    createResponse(e2eDb(), {
      activityId: activity.id,
      sceneId: scene.id,
      userId: made.students[student]!.id,
      scenePosition: scene.position,
      answer,
    });
  return { ...made, activity, scenes, open, answered };
}

test("the console shows the class's results beside the grid as answers arrive, before and after 結果を見せる; a student's answer opens in a side panel beside the grid, closed by Esc or its button, focus back on the card", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { students, scenes, activity, open } = await lesson(browser, 2);
  const choice = scenes[2]!;
  const teacher = await open({ width: 1280, height: 720 }, choice.id);
  const results = teacher.getByTestId("console-results");
  // nothing answered yet: said so, in the results area beside the grid
  await expect(results.getByTestId("console-results-empty")).toBeVisible();
  expect(await baseText(results.getByTestId("console-results-empty"))).toContain("まだ答えがありません");
  const grid = teacher.getByTestId("live-grid");
  const gridBox = (await grid.boundingBox())!;
  const resultsBox = (await results.boundingBox())!;
  expect(resultsBox.x, "results beside the grid, not below it").toBeGreaterThanOrEqual(gridBox.x + gridBox.width - 1);
  expect(resultsBox.y).toBeLessThan(gridBox.y + gridBox.height);

  // a student answers: the console's chart follows without 結果を見せる (the projector's flag stays off)
  const kid = await signedIn(browser, students[0]!.email!, PHONE);
  await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
  await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", choice.id);
  await kid.locator('[data-option="cloudy"] input').check();
  await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
  await expect(results.locator('[data-testid="results-bars"] [data-option="cloudy"]')).toHaveAttribute(
    "data-count",
    "1",
  );
  await expect(teacher.getByTestId("toggle-results")).toHaveAttribute("aria-pressed", "false");
  await expect(results.getByTestId("console-results-private")).toBeVisible();
  // 結果を見せる: the same results, now on the projector too
  await teacher.getByTestId("toggle-results").click();
  await expect(teacher.getByTestId("toggle-results")).toHaveAttribute("aria-pressed", "true");
  await expect(results.getByTestId("console-results-private")).toHaveCount(0);
  await expect(results.locator('[data-option="cloudy"]')).toHaveAttribute("data-count", "1");

  // a student's card opens their answer beside the grid (not below the 40 cards)
  await cell(teacher, students[0]!.id).click();
  const answer = teacher.getByTestId("grid-answer");
  await expect(answer).toHaveAttribute("data-status", "done");
  await expect(answer.locator('[data-option="cloudy"] input')).toBeChecked();
  const answerBox = (await answer.boundingBox())!;
  const gridNow = (await grid.boundingBox())!;
  expect(answerBox.x, "the answer panel is beside the grid").toBeGreaterThanOrEqual(gridNow.x + gridNow.width - 1);
  expect(answerBox.y, "the answer panel starts beside the grid's top, not under it").toBeLessThan(
    gridNow.y + gridNow.height,
  );
  await expectAccessible(teacher);
  // Esc closes it; focus back on the card
  await teacher.keyboard.press("Escape");
  await expect(answer).toHaveCount(0);
  await expect(cell(teacher, students[0]!.id)).toBeFocused();
  // the keyboard opens it again; Tab reaches the close button, which closes it
  await teacher.keyboard.press("Enter");
  await expect(answer).toBeVisible();
  await answer.getByTestId("grid-answer-close").focus();
  await teacher.keyboard.press("Enter");
  await expect(answer).toHaveCount(0);
  await expect(cell(teacher, students[0]!.id)).toBeFocused();
});

test("on a phone the answer is a sheet over the grid, closed by Esc or its button; the results follow the grid", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { students, scenes, open, answered } = await lesson(browser, 2);
  const choice = scenes[2]!;
  await answered(1, choice, { choice: "clear" });
  const teacher = await open(PHONE, choice.id);
  await expect(teacher.getByTestId("console-results").locator('[data-option="clear"]')).toHaveAttribute(
    "data-count",
    "1",
  );
  await cell(teacher, students[1]!.id).click();
  const answer = teacher.getByTestId("grid-answer");
  await expect(answer).toHaveAttribute("data-status", "done");
  // within the screen, over the grid (no scrolling away from the class)
  const box = (await answer.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height + 1);
  expect(box.width).toBeLessThanOrEqual(PHONE.width);
  await teacher.keyboard.press("Escape");
  await expect(answer).toHaveCount(0);
  await expect(cell(teacher, students[1]!.id)).toBeFocused();
  await cell(teacher, students[1]!.id).click();
  await answer.getByTestId("grid-answer-close").click();
  await expect(answer).toHaveCount(0);
  await expect(cell(teacher, students[1]!.id)).toBeFocused();
});

test("a two-step scene's results on the console: both steps' charts and the first × second cross-table", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { scenes, open, answered } = await lesson(browser, 3);
  const twoStep = scenes.find((s) => s.type === "two_step")!;
  const answers = [
    { first: "same", second: "sure", reason: "とけても重さは変わらないから" },
    { first: "same", second: "sure", reason: "水にかくれているだけ" },
    { first: "less", second: "sure", reason: "見えなくなったから" },
  ];
  for (const [i, answer] of answers.entries()) await answered(i, twoStep, answer);
  const teacher = await open({ width: 1280, height: 720 }, twoStep.id);
  const results = teacher.getByTestId("console-results");
  await expect(results.getByTestId("results-bars")).toHaveCount(2);
  const table = results.getByTestId("cross-table");
  await expect(table.locator('[data-cell="same:sure"]')).toHaveAttribute("data-count", "2");
  await expect(table.locator('[data-cell="less:sure"]')).toHaveAttribute("data-count", "1");
  // a cell lists its reasons
  await table.locator('[data-cell="same:sure"] button').click();
  await expect(results.getByTestId("cell-reasons")).toContainText("水にかくれているだけ");
});

for (const lang of ["ja", "ja-ruby", "ja-kana"] as const)
  test(`the console as a teacher sees it (${lang}): 1280×720, 1920×1080, tablet and phone, with results and an answer open`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const { students, scenes, open, answered } = await lesson(browser, 4, lang);
    const choice = scenes[2]!;
    const empty = await open({ width: 1280, height: 720 }, choice.id);
    await expect(empty.getByTestId("console-results-empty")).toBeVisible();
    await empty.screenshot({ path: `test-results/console-empty-${lang}-1280.png` });
    for (const i of [0, 1, 2]) await answered(i, choice, { choice: i === 2 ? "clear" : "cloudy" });
    for (const [name, viewport] of [
      ["1280", { width: 1280, height: 720 }],
      ["1920", { width: 1920, height: 1080 }],
      ["tablet", { width: 768, height: 1024 }],
      ["phone", PHONE],
    ] as const) {
      const page = await open(viewport, choice.id);
      await expect(page.getByTestId("console-results").getByTestId("results-bars")).toBeVisible();
      await page.screenshot({ path: `test-results/console-${lang}-${name}-results.png`, fullPage: true });
      await cell(page, students[0]!.id).click();
      await expect(page.getByTestId("grid-answer")).toHaveAttribute("data-status", "done");
      await page.screenshot({ path: `test-results/console-${lang}-${name}.png` });
    }
  });
