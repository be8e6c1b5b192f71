import { type BrowserContext, expect, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { makeSchool, TEST_PASSWORD } from "./db";
import { chooseLanguage, signInAs, storageStateOf, visibleText } from "./helpers";

const HAN = /\p{Script=Han}/u;

async function setCookie(context: BrowserContext, value: string) {
  await context.addCookies([{ name: "manabiya-lang", value, url: BASE_URL }]);
}

test.describe("display languages", () => {
  test("the sign-in page switches language in place, keeps form input, and remembers the choice", async ({ page }) => {
    await page.goto("/signin");
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    // default: reading aids (ruby on the lead text)
    await expect(page.locator(".signin-card p.muted ruby").filter({ hasText: "入" }).locator("rt")).toHaveText([
      "にゅう",
      "りょく",
    ]);
    await page.getByLabel("メールアドレス").fill("student01@example.com");

    await chooseLanguage(page, "ja-kana");
    await expect(page.locator(".signin-card p.muted")).toHaveText("メールアドレスと パスワードを いれてください。");
    expect(await visibleText(page)).not.toMatch(HAN);
    await expect(page.getByLabel("メールアドレス")).toHaveValue("student01@example.com");
    expect(await page.evaluate(() => localStorage.getItem("manabiya.displayLanguage"))).toBe("ja-kana");

    await page.reload();
    await expect(page.locator(".signin-card p.muted")).toHaveText("メールアドレスと パスワードを いれてください。");

    await chooseLanguage(page, "ja");
    await expect(page.locator(".signin-card p.muted")).toHaveText("メールアドレスとパスワードを入力してください。");
    await expect(page.locator(".signin-card ruby")).toHaveCount(0);
  });

  test("the switcher is a keyboard menu that closes on Escape and on an outside click", async ({ page }) => {
    await page.goto("/signin");
    const button = page.getByTestId("language-switcher");
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menu")).toBeVisible();
    await expect(page.locator('[role="menuitemradio"][aria-checked="true"]')).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.locator('[role="menuitemradio"][data-lang="ja-kana"]')).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(button).toBeFocused();
    await button.click();
    await expect(page.getByRole("menu")).toBeVisible();
    await page.locator("h1").click();
    await expect(page.getByRole("menu")).toHaveCount(0);
  });

  test("a garbage cookie gives the default language", async ({ page, context }) => {
    await setCookie(context, "klingon");
    await page.goto("/signin");
    await expect(page.locator(".signin-card p.muted ruby").first()).toBeVisible();
    await expect(page.getByTestId("language-switcher")).toContainText("ふりがなつき");
  });

  test("a home page in kana mode has no kanji, names included", async ({ browser }) => {
    for (const role of ["student", "teacher", "manager"] as const) {
      const context = await browser.newContext({ storageState: storageStateOf(role) });
      await setCookie(context, "ja-kana");
      const page = await context.newPage();
      await page.goto(`/dashboard/${role}/home`);
      await expect(page.getByTestId("welcome")).toBeVisible();
      const text = await visibleText(page);
      expect(text, `${role} home in kana`).not.toMatch(HAN);
      await setCookie(context, "ja");
      await page.reload();
      expect(await page.getByTestId("display-name").innerText()).toMatch(role === "student" ? /はるくん/ : HAN);
      await context.close();
    }
  });

  test("switching on a home page changes its strings", async ({ browser }) => {
    // a teacher of its own: a signed-in switch is saved on the person's record
    const { teacher } = await makeSchool(0);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("先生のホーム"); // staff: plain Japanese
    await chooseLanguage(page, "ja-ruby");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("せん"); // ruby reading
    await chooseLanguage(page, "ja-kana");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("せんせいの ホーム");
    await chooseLanguage(page, "ja");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("先生のホーム");
    await context.close();
  });
});

test.describe("markup gallery", () => {
  test("shows ruby by language, math typeset by KaTeX with its own fonts from the app, and colours", async ({
    browser,
  }) => {
    const context = await browser.newContext({ storageState: storageStateOf("teacher") });
    await setCookie(context, "ja-ruby"); // staff default to plain Japanese
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on("request", (req) => {
      if (!req.url().startsWith(BASE_URL) && !req.url().startsWith("data:")) foreign.push(req.url());
    });
    await page.goto("/dashboard/teacher/home");
    await page.getByTestId("markup-link").click();
    await expect(page).toHaveURL("/dashboard/teacher/markup");
    const ruby = page.getByTestId("result-ruby");
    // mono-ruby: one reading per character; group ruby for jukujikun
    await expect(ruby.locator("ruby").first().locator("rt")).toHaveText(["すい", "よう", "えき"]);
    await expect(page.getByTestId("result-groupRuby").locator("ruby").first().locator("rt")).toHaveText(["きょう"]);

    const math = page.getByTestId("result-math");
    await expect(math.locator(".katex").first()).toBeVisible();
    await expect(math.locator(".katex-mathml annotation").first()).toHaveText("x^2 - 5x + 6 = 0");
    await expect(page.getByTestId("result-mathError").locator("[data-math-error]")).toHaveText("\\frac{1}{");
    await page.evaluate(() => document.fonts.ready);
    const loaded = await page.evaluate(() =>
      [...document.fonts].filter((f) => f.status === "loaded" && f.family.includes("KaTeX")).map((f) => f.family),
    );
    expect(loaded.length).toBeGreaterThan(0);

    const red = page.getByTestId("result-color").locator('[data-color="accent-red"]');
    await expect(red).toHaveCSS("color", "rgb(198, 40, 40)");
    await expect(page.getByTestId("result-lightColor").locator('[data-color="white"]')).toHaveClass(/rt-chip/);
    await expect(page.getByTestId("result-literal")).toContainText("**");

    await setCookie(context, "ja");
    await page.reload();
    await expect(page.getByTestId("result-ruby")).toHaveText("水溶液を観察する");
    await setCookie(context, "ja-kana");
    await page.reload();
    await expect(page.getByTestId("result-ruby")).toHaveText("すいようえきをかんさつする");
    expect(foreign).toEqual([]);
    await context.close();
  });
});
