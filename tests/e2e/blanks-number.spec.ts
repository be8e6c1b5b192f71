import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { baseText, editUrl, expectAccessible, expectNotification } from "./helpers";
import { pickClass, sceneOf } from "./guide";

/**
 * Fill-in-the-blanks (穴埋め) and number (数値) scenes end to end: made in the editor (a bad text refused with its
 * message), answered solo on a phone and live on a tablet by keyboard, the console's chart, the stats page and
 * the CSV (features/scenes/shared/fill-blanks.ts, number-answer.ts).
 */
const signedIn = signedInBrowsers();
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 800, height: 1280 };
const answerOf = async (sceneId: string, userId: string) =>
  (await e2eDb().response.findFirst({ where: { sceneId, userId }, select: { answer: true } }))?.answer ?? null;

test("a teacher makes a fill-in-the-blanks and a number scene (a text without blanks refused with a message); a student answers them solo on a phone, a non-number refused", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  const page = await signedIn(browser, teacher.email!);
  await page.goto(editUrl(activity.id));
  const addOf = async (type: "fill_blanks" | "number") => {
    await page.getByTestId("add-type").selectOption(type);
    await page.getByTestId("add-scene").click();
    await expectNotification(page, "シーンを追加しました");
    await expect.poll(async () => e2eDb().activityScene.count({ where: { activityId: activity.id, type } })).toBe(1);
    const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: activity.id, type } });
    return { scene, item: page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`) };
  };
  const blanks = await addOf("fill_blanks");
  expect(blanks.scene.content).toEqual({ prompt: "新しい問い", text: "水は[[100/百]]度でふっとうします。" });
  const form = blanks.item.getByTestId("scene-form");
  const text = form.locator('[data-field="content.text"]');
  // a text without blanks: the preview waits, and saving shows the message and stores nothing
  await text.fill("空らんのない文");
  await form.getByTestId("save-scene").click();
  await expect(form.getByTestId("field-error")).toContainText("空らん [[答え]] を1〜10個書いてください。");
  expect((await e2eDb().activityScene.findUniqueOrThrow({ where: { id: blanks.scene.id } })).content).toEqual(
    blanks.scene.content,
  );
  await text.fill("日本の首都は[[|東京(とうきょう)]]です。水は[[100/百]]度でふっとうします。");
  await expect(form.getByTestId("field-error")).toHaveCount(0);
  // the teacher's preview shows each blank's accepted answers
  await expect(blanks.item.getByTestId("scene-preview").getByTestId("blank-answers").first()).toContainText("東京");
  await form.getByTestId("save-scene").click();
  await expectNotification(page, "シーンを保存しました");
  await expect
    .poll(async () => (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: blanks.scene.id } })).content)
    .toMatchObject({ text: expect.stringContaining("[[|東京(とうきょう)]]") });

  const number = await addOf("number");
  const nform = number.item.getByTestId("scene-form");
  await nform.locator('[data-field="content.unit"]').fill("cm");
  await nform.locator('[data-field="content.correct"]').fill("12.5");
  await nform.locator('[data-field="content.tolerance"]').fill("0.5");
  await nform.getByTestId("save-scene").click();
  await expectNotification(page, "シーンを保存しました");
  await expect
    .poll(async () => (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: number.scene.id } })).content)
    .toMatchObject({ unit: "cm", correct: 12.5, tolerance: 0.5 });
  await expectAccessible(page);

  // a student on a phone, solo: the blanks' answers never reach the page
  const kid = await signedIn(browser, students[0]!.email!, PHONE);
  const html: string[] = [];
  kid.on("response", async (res) => {
    if (res.request().resourceType() === "document") html.push(await res.text().catch(() => ""));
  });
  await kid.getByTestId("my-activities").locator(`[data-activity-id="${activity.id}"]`).getByTestId("go-start").click();
  const scene = kid.getByTestId("scene");
  for (let i = 0; i < 8 && (await scene.getAttribute("data-scene-type")) !== "fill_blanks"; i++)
    await kid.getByTestId("next").click();
  await expect(scene).toHaveAttribute("data-scene-type", "fill_blanks");
  expect(html.join("")).not.toContain("とうきょう");
  await kid.getByRole("textbox", { name: "1番目の空らん" }).fill("トウキョウ");
  await kid.getByRole("textbox", { name: "2番目の空らん" }).fill("１００");
  await expect
    .poll(() => answerOf(blanks.scene.id, students[0]!.id), { timeout: 30_000 })
    .toEqual({ blanks: ["トウキョウ", "１００"] });
  expect(await kid.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await expectAccessible(kid);
  await kid.getByTestId("next").click();
  await expect(scene).toHaveAttribute("data-scene-type", "number");
  await expect(scene.getByTestId("number-unit")).toHaveText("cm");
  const input = scene.getByTestId("number-input");
  await input.fill("12センチ");
  await expect(scene.getByTestId("number-problem")).toBeVisible();
  expect(await baseText(scene.getByTestId("number-problem"))).toContain("数を入力してください");
  await input.fill("１２．９");
  await expect(scene.getByTestId("number-problem")).toHaveCount(0);
  await expect.poll(() => answerOf(number.scene.id, students[0]!.id), { timeout: 30_000 }).toEqual({ number: 12.9 });
  await expectAccessible(kid);
});

test("live on a tablet by keyboard: the console charts right per blank with the common wrong answers and a histogram of the numbers; the stats page and the CSV count them", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { teacher, school, students } = await makeSchool(2);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const position = (await scenesOf(activity.id)).length;
  const blanks = await e2eDb().activityScene.create({
    data: {
      activityId: activity.id,
      position,
      type: "fill_blanks",
      content: { prompt: "書こう", text: "首都は[[|東京(とうきょう)]]、水は[[100/百]]度" },
    },
  });
  const number = await e2eDb().activityScene.create({
    data: {
      activityId: activity.id,
      position: position + 1,
      type: "number",
      content: { prompt: "長さは？", unit: "cm", correct: 12.5, tolerance: 0.5 },
    },
  });
  const console = await signedIn(browser, teacher.email!, { width: 1280, height: 720 });
  await console.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await pickClass(console, "1:1");
  await console.getByTestId("start-session").click();
  await expect(console.getByTestId("guide-console")).toBeVisible();
  await console.getByTestId("guide-jump").selectOption(blanks.id);
  const results = console.getByTestId("console-results");

  const kids: Page[] = [];
  for (const s of students) {
    const kid = await signedIn(browser, s.email!, TABLET);
    await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", blanks.id);
    kids.push(kid);
  }
  // keyboard only: Tab to the first blank, type, Tab to the next
  const typeBlanks = async (i: number, first: string, second: string) => {
    const kid = kids[i]!;
    await kid.getByRole("textbox", { name: "1番目の空らん" }).focus();
    await kid.keyboard.type(first);
    await kid.keyboard.press("Tab");
    await kid.keyboard.type(second);
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 30_000 });
  };
  await typeBlanks(0, "とうきょう", "百");
  await typeBlanks(1, "キョウト", "90");
  const rows = results.getByTestId("blank-result");
  await expect(rows.nth(0)).toHaveAttribute("data-right", "1");
  await expect(rows.nth(1)).toHaveAttribute("data-right", "1");
  // the second answer reaches the console after the first: its wrong reading is listed once it has
  await expect.poll(() => baseText(rows.nth(0)), { timeout: 30_000 }).toContain("きょうと");
  await expectAccessible(console);

  await console.getByTestId("guide-jump").selectOption(number.id);
  for (const [i, typed] of ["12,9", "−3"].entries()) {
    const kid = kids[i]!;
    await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", number.id);
    await kid.getByTestId("number-input").fill(typed);
  }
  await expect(results.getByTestId("number-right")).toHaveAttribute("data-right", "0");
  await kids[0]!.getByTestId("number-input").fill("12.9");
  await expect(results.getByTestId("number-right")).toHaveAttribute("data-right", "1", { timeout: 30_000 });
  await expect(results.getByTestId("histogram-bar")).toHaveCount(2);

  // the stats page and the results CSV
  await console.goto(`/dashboard/teacher/activities/stats/${activity.id}`);
  const stats = console.locator(`[data-scene-id="${blanks.id}"]`);
  await expect(stats.getByTestId("blank-result").nth(0)).toHaveAttribute("data-right", "1");
  await expect(console.locator(`[data-scene-id="${number.id}"]`).getByTestId("histogram-bar")).toHaveCount(2);
  const csv = await (await console.request.get(`/api/v1/exports/${activity.id}/results`)).text();
  expect(csv).toContain("1番目の空らん,正答率,1,50");
  expect(csv).toContain("-3,cm,1,50");
});
