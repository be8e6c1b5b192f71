import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { devices, signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool, scenesOf } from "./db";
import { baseText, editUrl, expectAccessible, expectNotification } from "./helpers";
import { pickClass, sceneOf } from "./guide";

/**
 * Word cloud (ことばの雲) scenes end to end (features/scenes/shared/word-cloud.ts): made in the editor, answered solo
 * on a phone (an emptied box refused with its message), live by three students with the words on the projector,
 * one hidden from the console's list and gone from the projector; screenshots of the phone in the three display
 * languages and of the projector at 1280×720 and 1920×1080.
 */
const signedIn = signedInBrowsers();
const device = devices();
const PHONE = { width: 390, height: 844 };
const LANGS = ["ja", "ja-ruby", "ja-kana"] as const;
const answerOf = async (sceneId: string, userId: string) =>
  (await e2eDb().response.findFirst({ where: { sceneId, userId }, select: { answer: true } }))?.answer ?? null;

test("a teacher makes a word cloud scene; a student answers it solo on a phone, an emptied answer refused with a message", async ({
  browser,
}, testInfo) => {
  // the editor, then the student signed in three times (one per display language) on a loaded machine
  test.setTimeout(480_000);
  const { teacher, school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
  });
  const page = await signedIn(browser, teacher.email!);
  await page.goto(editUrl(activity.id));
  await page.getByTestId("add-type").selectOption("word_cloud");
  await page.getByTestId("add-scene").click();
  await expectNotification(page, "シーンを追加しました");
  const where = { activityId: activity.id, type: "word_cloud" as const };
  await expect.poll(async () => e2eDb().activityScene.count({ where })).toBe(1);
  const scene = await e2eDb().activityScene.findFirstOrThrow({ where });
  expect(scene.content).toEqual({ prompt: "思いついたことばを書きましょう。" });
  const item = page.locator(`[data-scene-id="${scene.id}"][data-testid="scene-item"]`);
  const form = item.getByTestId("scene-form");
  await expect(form.getByTestId("words-hint")).toContainText("20文字まで");
  await form.locator('[data-field="content.maxWords"]').fill("2");
  await expect(item.getByTestId("scene-preview").getByTestId("word-input")).toHaveCount(2);
  await form.getByTestId("save-scene").click();
  await expectNotification(page, "シーンを保存しました");
  await expect
    .poll(async () => (await e2eDb().activityScene.findUniqueOrThrow({ where: { id: scene.id } })).content)
    .toEqual({ prompt: "思いついたことばを書きましょう。", maxWords: 2 });
  await expectAccessible(page);

  for (const lang of LANGS) {
    const kid = await signedIn(browser, students[0]!.email!, PHONE, { lang });
    // the first time from the home's start button; afterwards the home offers つづける, and the page is opened again
    if (lang === "ja")
      await kid
        .getByTestId("my-activities")
        .locator(`[data-activity-id="${activity.id}"]`)
        .getByTestId("go-start")
        .click();
    else await kid.goto(`/dashboard/student/activities/solo/${activity.id}`);
    const shown = kid.getByTestId("scene");
    for (let i = 0; i < 8 && (await shown.getAttribute("data-scene-type")) !== "word_cloud"; i++)
      await kid.getByTestId("next").click();
    await expect(shown).toHaveAttribute("data-scene-type", "word_cloud");
    const boxes = shown.getByTestId("word-input");
    await expect(boxes).toHaveCount(2);
    if (lang === "ja") {
      expect(await baseText(shown.getByTestId("words-limit"))).toContain("1つ20文字まで");
      await expect(boxes.first()).toHaveAttribute("maxlength", "20");
      await boxes.first().fill("  ネコ ");
      await boxes.nth(1).fill("ｉｎｕ");
      await expect
        .poll(() => answerOf(scene.id, students[0]!.id), { timeout: 30_000 })
        .toEqual({ words: ["ネコ", "ｉｎｕ"] });
      await boxes.first().fill("");
      await boxes.nth(1).fill(" ");
      await expect(shown.getByTestId("words-problem")).toBeVisible();
      expect(await baseText(shown.getByTestId("words-problem"))).toContain("ことばを1つ以上書いてください。");
      // the first box emptied sends the second alone; both emptied send nothing: the last words stay
      await expect.poll(() => answerOf(scene.id, students[0]!.id), { timeout: 30_000 }).toEqual({ words: ["ｉｎｕ"] });
      await kid.waitForTimeout(1500);
      expect(await answerOf(scene.id, students[0]!.id)).toEqual({ words: ["ｉｎｕ"] });
      await boxes.first().fill("さかな");
      await expect(shown.getByTestId("words-problem")).toHaveCount(0);
      await expect.poll(() => answerOf(scene.id, students[0]!.id), { timeout: 30_000 }).toEqual({ words: ["さかな"] });
    }
    expect(await kid.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(kid);
    await kid.screenshot({ path: testInfo.outputPath(`word-cloud-phone-${lang}.png`), fullPage: true });
    await kid.context().close();
  }
});

test("live: three students send words, the projector shows them sized by count; the teacher hides one and it disappears from the projector", async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const { teacher, school, students } = await makeSchool(3);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  const cloud = await e2eDb().activityScene.create({
    data: {
      activityId: activity.id,
      position: (await scenesOf(activity.id)).length,
      type: "word_cloud",
      content: { prompt: "|水(みず)と|聞(き)いて|思(おも)いうかぶことば", maxWords: 2 },
    },
  });
  const console = await signedIn(browser, teacher.email!, { width: 1280, height: 720 });
  await console.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
  await pickClass(console, "1:1");
  await console.getByTestId("start-session").click();
  await expect(console.getByTestId("guide-console")).toBeVisible();
  await console.getByTestId("guide-jump").selectOption(cloud.id);
  const [popup] = await Promise.all([console.waitForEvent("popup"), console.getByTestId("projector-open").click()]);
  const link = await console.getByTestId("projector-link").inputValue();
  await popup.close();
  await console.getByTestId("toggle-results").click();

  const screens: Page[] = [];
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    const screen = await (await device(browser, { viewport })).newPage();
    await screen.goto(link);
    await expect(screen.getByTestId("projector-live")).toHaveAttribute("data-scene-id", cloud.id);
    screens.push(screen);
  }

  const sent = [
    ["うみ", "つめたい"],
    ["ウミ", "あめ"],
    ["うみ ", "ないしょ"],
  ];
  for (const [i, s] of students.entries()) {
    const kid = await signedIn(browser, s.email!, PHONE);
    await kid.goto(`/dashboard/student/activities/session/${activity.id}`);
    await expect(sceneOf(kid)).toHaveAttribute("data-scene-id", cloud.id);
    const boxes = kid.getByTestId("word-input");
    await boxes.first().fill(sent[i]![0]!);
    await boxes.nth(1).fill(sent[i]![1]!);
    await expect(kid.getByTestId("save-status")).toHaveAttribute("data-status", "saved", { timeout: 30_000 });
  }

  for (const screen of screens) {
    const words = screen.getByTestId("projector-results").getByTestId("cloud-word");
    await expect(words).toHaveCount(4, { timeout: 30_000 });
    await expect(words.first()).toHaveAttribute("data-count", "3");
    await expect(words.first()).toContainText("うみ");
    const [big, small] = await Promise.all(
      [words.first(), words.filter({ hasText: "あめ" })].map((w) =>
        w.evaluate((el) => parseFloat(getComputedStyle(el).fontSize)),
      ),
    );
    expect(big).toBeGreaterThan(small!);
    await expect(screen.getByTestId("projector-results")).toContainText("ないしょ");
  }
  await screens[0]!.screenshot({ path: testInfo.outputPath("word-cloud-projector-1280x720.png") });
  await screens[1]!.screenshot({ path: testInfo.outputPath("word-cloud-projector-1920x1080.png") });

  // the console lists every word with its 「隠す」; pressed, the word leaves the projector
  const toggles = console.getByTestId("word-toggle");
  await expect(toggles).toHaveCount(4);
  await expectAccessible(console);
  const secret = toggles.filter({ hasText: "ないしょ" });
  await secret.getByRole("button", { name: "隠す" }).click();
  await expect(secret).toHaveAttribute("data-hidden", "true");
  await expect(secret.getByRole("button", { name: "隠す" })).toHaveAttribute("aria-pressed", "true");
  for (const screen of screens) {
    await expect(screen.getByTestId("cloud-word")).toHaveCount(3);
    await expect(screen.getByTestId("projector-live")).not.toContainText("ないしょ");
  }
  const state = await (await console.request.get(`/api/v1/projector/${link.split("/").pop()}/state`)).text();
  expect(state).not.toContain("ないしょ");
  await console.screenshot({ path: testInfo.outputPath("word-cloud-console-1280x720.png"), fullPage: true });
  await screens[0]!.screenshot({ path: testInfo.outputPath("word-cloud-projector-hidden-1280x720.png") });
  expect(await e2eDb().auditLog.count({ where: { targetId: activity.id, action: "guide.word.hide" } })).toBe(1);
});
