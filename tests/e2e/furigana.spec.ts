import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, createUser } from "../../prisma/seed/factories";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { editUrl, expectAccessible, expectNotification, signInAs } from "./helpers";

const setLanguage = (page: Page, lang: string) =>
  page.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
const post = (page: Page, body: string, headers: Record<string, string> = {}) =>
  page.request.post("/api/v1/furigana", {
    data: body,
    headers: { "Content-Type": "application/json", Origin: BASE_URL, ...headers },
    failOnStatusCode: false,
  });

test.describe("automatic furigana", () => {
  test("a teacher asks for readings, corrects one, applies by keyboard and saves; every display language shows it", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { teacher, school } = await makeSchool(0);
    // a pupil of the school is read あずま, which the dictionary alone would read ひがし
    await createUser(e2eDb(), {
      role: "student",
      schoolId: school.id,
      name: "東 翔",
      nameKana: "あずま かける",
      email: `azuma-${school.id}@test.example`,
    });
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
    });
    await setLanguage(page, "ja");
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));

    await page.locator('input[name="title"]').fill("東さんと渋谷で食べる");
    await expect(page.getByTestId("furigana-suggest-button")).toHaveText("ふりがなを提案");
    await page.getByTestId("furigana-suggest-button").focus();
    await page.keyboard.press("Enter");
    const rows = page.getByTestId("furigana-row");
    await expect(rows).toHaveCount(3, { timeout: 30_000 });
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-base")))).toEqual(["東", "渋谷", "食"]);
    const reading = (base: string) =>
      page.locator(`[data-testid="furigana-row"][data-base="${base}"] input.furigana-reading`);
    await expect(reading("東")).toHaveValue("あずま");
    await expect(reading("渋谷")).toHaveValue("しぶや");
    await expect(reading("食")).toHaveValue("た");
    await expect(page.getByTestId("furigana-proposals").locator('input[type="checkbox"]:not(:checked)')).toHaveCount(0);
    // 渋谷, a proper noun, is the analyser's guess: marked for the teacher; the roster's name and 食 are not
    const marks = page.getByTestId("furigana-check");
    await expect(marks).toHaveCount(1);
    await expect(
      page.locator('[data-testid="furigana-row"][data-base="渋谷"] [data-testid="furigana-check"]'),
    ).toHaveText("要確認");
    // the guessed reading's box is outlined in amber, the others are not
    await expect(reading("渋谷")).toHaveCSS("border-color", "rgb(201, 138, 0)");
    await expect(reading("食")).not.toHaveCSS("border-color", "rgb(201, 138, 0)");
    await page.getByTestId("furigana-proposals").scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("furigana-check.png") });
    await expectAccessible(page);
    // EDRDG's licence: a screen showing readings from EDICT names it
    await expect(page.getByTestId("furigana-credit")).toContainText("読みの一部に次の辞書を使っています");
    await expect(page.getByTestId("furigana-credit").getByRole("link")).toHaveAttribute(
      "href",
      "https://www.edrdg.org/edrdg/licence.html",
    );

    // the teacher corrects one reading and applies with Enter
    await reading("渋谷").fill("しぶたに");
    await page.keyboard.press("Enter");
    await expect(page.locator('input[name="title"]')).toHaveValue("|東(あずま)さんと|渋谷(しぶたに)で|食(た)べる");
    await page.getByTestId("save-order").click();
    await expectNotification(page, "保存しました");
    expect((await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id } })).title).toBe(
      "|東(あずま)さんと|渋谷(しぶたに)で|食(た)べる",
    );

    // what students see of that title, in each display language
    const preview = `/dashboard/teacher/activities/preview/${activity.id}`;
    await page.goto(preview);
    await expect(page.locator("h1")).toHaveText("東さんと渋谷で食べる");
    await expect(page.getByText("要確認")).toHaveCount(0);
    await setLanguage(page, "ja-kana");
    await page.goto(preview);
    await expect(page.locator("h1")).toHaveText("あずまさんとしぶたにでたべる");
    await setLanguage(page, "ja-ruby");
    await page.goto(preview);
    await expect(page.locator("h1 ruby")).toHaveCount(3);
    await expect(page.locator("h1 rt")).toHaveText(["あずま", "しぶたに", "た"]);
  });

  test("a text without kanji says so; a student, another site and an oversized text are refused", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { teacher, school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "reflection-weekly",
      schoolId: school.id,
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto(editUrl(activity.id));
    await page.locator('input[name="title"]').fill("ふりかえり ABC 123");
    await page.getByTestId("furigana-suggest-button").click();
    await expect(page.getByTestId("furigana-empty")).toBeVisible({ timeout: 30_000 });

    expect((await post(page, JSON.stringify({ text: "先生" }), { Origin: "https://evil.example" })).status()).toBe(403);
    const tooLong = await post(page, JSON.stringify({ text: "漢".repeat(10_001) }));
    expect(tooLong.status()).toBe(413);
    expect(await tooLong.json()).toEqual({ ok: false, code: "VALIDATION" });
    // a body past the byte bound is refused before it is read whole
    expect((await post(page, JSON.stringify({ text: "a".repeat(200_000) }))).status()).toBe(413);
    expect((await post(page, "not json")).status()).toBe(400);
    expect((await post(page, JSON.stringify({ text: "先生", schoolId: "not-a-uuid" }))).status()).toBe(400);
    expect((await post(page, JSON.stringify({ text: 42 }))).status()).toBe(400);
    const ok = await post(page, JSON.stringify({ text: "先生" }));
    expect(await ok.json()).toMatchObject({ ok: true, data: { proposals: [{ base: "先生", reading: "せんせい" }] } });
    // the production server reads the second dictionary too: 七|輪 is one word, しちりん (not なな|りん)
    const compound = await post(page, JSON.stringify({ text: "七輪" }));
    expect(await compound.json()).toMatchObject({
      ok: true,
      data: { proposals: [{ base: "七輪", reading: "しちりん" }] },
    });

    const student = await createUser(e2eDb(), {
      role: "student",
      schoolId: school.id,
      name: "試験 生徒",
      nameKana: "しけん せいと",
      email: `fs-${school.id}@test.example`,
      password: TEST_PASSWORD,
    });
    const context = await browser.newContext();
    const studentPage = await context.newPage();
    await signInAs(studentPage, student.email!, TEST_PASSWORD);
    const refused = await post(studentPage, JSON.stringify({ text: "先生" }));
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toEqual({ ok: false, code: "FORBIDDEN" });
    await context.close();
  });
});
