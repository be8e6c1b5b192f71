import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { signedInBrowsers } from "./browsers";
import { e2eDb, makeSchool } from "./db";
import { baseText, editUrl, expectAccessible, expectHydrated, expectNotification } from "./helpers";

/**
 * The school's readings page (features/activities/README.md "Furigana"): a teacher finds a word the editor learned,
 * is refused a reading that is not kana (the message in the dialog), corrects it, deletes it after confirming by
 * keyboard, and the editor's next proposal reads the word as the dictionary does; the manager's page of the school;
 * screenshots at 1280×720 and 390×844 in the three display languages.
 */
const signedIn = signedInBrowsers();
const LANGS = ["ja", "ja-ruby", "ja-kana"] as const;
const PATH = "/dashboard/teacher/readings";

/** The editor's 「ふりがなを提案」 for `text` as the activity's title: the proposals as `base=reading`. */
async function proposalsFor(page: Page, activityId: string, text: string) {
  await page.goto(editUrl(activityId));
  await page.locator('input[name="title"]').fill(text);
  const button = page.getByTestId("furigana-suggest-button");
  await expectHydrated(button);
  await button.click();
  const rows = page.getByTestId("furigana-row");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  return rows.evaluateAll((els) =>
    els.map(
      (e) => `${e.getAttribute("data-base")}=${(e.querySelector("input.furigana-reading") as HTMLInputElement).value}`,
    ),
  );
}

test("a teacher corrects a reading of the school's list (kana only), deletes it, and the next proposal no longer uses it", async ({
  browser,
}, testInfo) => {
  // the editor twice and the page in three languages at two sizes, on a loaded machine
  test.setTimeout(360_000);
  const { teacher, manager, school } = await makeSchool(1);
  await e2eDb().schoolReading.create({
    data: { schoolId: school.id, base: "重複", reading: "ちょうふく", source: "editor", updatedBy: teacher.id },
  });
  const activity = await createActivityFromTemplate(e2eDb(), { templateId: "reflection-weekly", schoolId: school.id });
  const page = await signedIn(browser, teacher.email!, { width: 1280, height: 720 });
  expect(await proposalsFor(page, activity.id, "重複を避ける")).toContain("重複=ちょうふく");
  await expect(page.getByTestId("open-readings").first()).toHaveAttribute("href", PATH);

  await page.goto(`${PATH}?q=${encodeURIComponent("チョウ")}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("学校の読み");
  const row = page.locator('[data-testid="reading-row"][data-source="editor"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("reading-word")).toHaveText("重複");
  await expect(row).toContainText("ちょうふく");
  expect(await baseText(row)).toContain("先生が直したふりがな");
  await expect(row).toContainText("試験 先生");

  // a reading in kanji is refused, the message in the dialog and the text kept
  await expectHydrated(row.getByTestId("correct-reading"));
  await row.getByTestId("correct-reading").click();
  const dialog = page.getByTestId("correct-reading-dialog");
  await dialog.getByTestId("reading-input").fill("重ふく");
  await dialog.getByTestId("correct-reading-save").click();
  await expect(dialog.getByTestId("correct-reading-error")).toContainText(
    "読みはひらがなかカタカナだけで書いてください",
  );
  await expect(dialog.getByTestId("reading-input")).toHaveValue("重ふく");
  await dialog.getByTestId("reading-input").fill("チョウフク");
  await dialog.getByTestId("correct-reading-save").click();
  await expectNotification(page, "読みを直しました。");
  await expect
    .poll(async () =>
      e2eDb().schoolReading.findUnique({ where: { schoolId_base: { schoolId: school.id, base: "重複" } } }),
    )
    .toMatchObject({ reading: "ちょうふく", source: "page", updatedBy: teacher.id });
  await expect(page.locator('[data-testid="reading-row"][data-source="page"]')).toHaveCount(1);

  for (const lang of LANGS) {
    for (const viewport of [
      { width: 1280, height: 720 },
      { width: 390, height: 844 },
    ]) {
      const shot = await signedIn(browser, teacher.email!, viewport, { lang });
      await shot.goto(PATH);
      await expect(shot.getByTestId("reading-row")).toHaveCount(3); // the word, the teacher's and the student's names
      if (viewport.width === 390)
        expect(await shot.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      else await expectAccessible(shot);
      await shot.screenshot({ path: testInfo.outputPath(`readings-${lang}-${viewport.width}.png`), fullPage: true });
      await shot.context().close();
    }
  }

  // deleted by keyboard, after the dialog asks
  await page.goto(PATH);
  const word = page.locator('[data-testid="reading-row"][data-source="page"]');
  const remove = word.getByTestId("delete-reading");
  await expectHydrated(remove);
  await remove.focus();
  await page.keyboard.press("Enter");
  const ask = page.getByTestId("delete-reading-dialog");
  await expect(ask).toBeVisible();
  expect(await baseText(ask)).toContain("「重複」（ちょうふく）を学校の読みから消します。");
  await ask.getByTestId("delete-reading-save").focus();
  await page.keyboard.press("Enter");
  await expectNotification(page, "学校の読みから消しました。");
  await expect(word).toHaveCount(0);
  await expect(page.getByTestId("reading-row")).toHaveCount(2);
  expect(await e2eDb().schoolReading.count({ where: { schoolId: school.id } })).toBe(0);
  expect(await proposalsFor(page, activity.id, "重複を避ける")).toContain("重複=じゅうふく");
  await page.context().close();

  // the manager reaches the school's page from the school's screen; a school without readings says so
  const boss = await signedIn(browser, manager.email!, { width: 1280, height: 720 });
  await boss.goto(`/dashboard/manager/schools/${school.id}`);
  await boss.getByTestId("open-readings").click();
  await expect(boss).toHaveURL(`/dashboard/manager/schools/${school.id}/readings`);
  await boss.goto(`/dashboard/manager/schools/${school.id}/readings?q=${encodeURIComponent("ない言葉")}`);
  expect(await baseText(boss.getByTestId("readings-empty"))).toContain("「ない言葉」にあう読みはありません。");
  await boss.context().close();
});

test("a second tab still showing words deleted in the first: correcting or deleting one says it is gone, drops its row and brings nothing back; Back and reload show the list as it is", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, school } = await makeSchool(1);
  await e2eDb().schoolReading.createMany({
    data: ["重複=ちょうふく", "体重=たいじゅう"].map((w) => {
      const [base, reading] = w.split("=") as [string, string];
      return { schoolId: school.id, base, reading, source: "editor" as const, updatedBy: teacher.id };
    }),
  });
  const first = await signedIn(browser, teacher.email!, { width: 1280, height: 720 });
  const second = await first.context().newPage();
  const third = await first.context().newPage();
  const words = (page: Page) => page.locator('[data-testid="reading-row"][data-source="editor"]');
  const word = (page: Page, base: string) => words(page).filter({ has: page.getByText(base, { exact: true }) });
  for (const page of [first, second, third]) {
    await page.goto(PATH);
    await expect(words(page)).toHaveCount(2);
  }

  // the first tab deletes both words
  for (const base of ["重複", "体重"]) {
    await expectHydrated(word(first, base).getByTestId("delete-reading"));
    await word(first, base).getByTestId("delete-reading").click();
    await word(first, base).getByTestId("delete-reading-dialog").getByTestId("delete-reading-save").click();
    await expect(word(first, base)).toHaveCount(0);
  }

  // the other two tabs, not reloaded: a correction and a deletion are each told the word is gone, and the list follows
  const gone = "この言葉はもう一覧にありません。ページを読みなおしてください。";
  await expectHydrated(word(second, "重複").getByTestId("correct-reading"));
  await word(second, "重複").getByTestId("correct-reading").click();
  const correct = word(second, "重複").getByTestId("correct-reading-dialog");
  await correct.getByTestId("reading-input").fill("じゅうふく");
  await correct.getByTestId("correct-reading-save").click();
  await expectNotification(second, gone);
  await expect(word(second, "重複")).toHaveCount(0);
  await expect(words(second)).toHaveCount(0);
  await expectHydrated(word(third, "体重").getByTestId("delete-reading"));
  await word(third, "体重").getByTestId("delete-reading").click();
  await word(third, "体重").getByTestId("delete-reading-dialog").getByTestId("delete-reading-save").click();
  await expectNotification(third, gone);
  await expect(words(third)).toHaveCount(0);
  expect(await e2eDb().schoolReading.count({ where: { schoolId: school.id } })).toBe(0);
  await second.reload();
  await expect(second.getByTestId("reading-row")).toHaveCount(2); // the teacher's and the student's names
  await expect(words(second)).toHaveCount(0);

  // the first tab goes elsewhere and comes Back: the list as it is now, not as it was
  await first.goto("/dashboard/teacher/home");
  await first.goBack();
  await expect(first).toHaveURL(PATH);
  await expect(first.getByTestId("reading-row")).toHaveCount(2);
  await expect(words(first)).toHaveCount(0);
  await first.context().close();
});
