import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/**
 * What a student's tablet downloads on a first day (tools/bench/bytes.ts
 * measures the bytes; these check the causes): the JavaScript of each module
 * comes once, the browser keeps the icon, and no ICU message parser is sent
 * (the catalogues are compiled at build time).
 */

/** Turbopack's chunks: `…push([script, <id>, (e,t,r)=>{…}, <id>, …])`, a module's id before its factory. */
const MODULE = /[,[](\d+),(?:\([\w$]+(?:,[\w$]+)*\)|[\w$]+)=>/g;

/** The scripts a page's visit fetched (in order), with their text. */
function recordScripts(page: Page) {
  const scripts: { url: string; body: string }[] = [];
  page.on("response", async (res) => {
    if (res.request().resourceType() !== "script" || !res.url().includes("/_next/static/")) return;
    scripts.push({ url: res.url(), body: await res.text().catch(() => "") });
  });
  return scripts;
}

test.describe("a student's first day downloads each thing once", () => {
  test("no JavaScript module comes twice over the sign-in page, the QR sign-in and the home", async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto("/signin");
    await expect(page.locator('input[name="email"]')).toBeVisible();
    const { students } = await makeSchool(1);
    await page.goto(`/auth/auth-with-code?code=${students[0]!.code}`);
    await page.getByRole("button", { name: "はい、わたしです" }).click();
    await expect(page).toHaveURL("/dashboard/student/home");
    await page.waitForLoadState("networkidle");
    const where = new Map<string, string[]>();
    for (const { url, body } of scripts)
      for (const [, id] of body.matchAll(MODULE)) where.set(id!, [...(where.get(id!) ?? []), url.replace(/.*\//, "")]);
    expect(scripts.length).toBeGreaterThan(3);
    expect(where.size).toBeGreaterThan(50);
    const twice = [...where]
      .filter(([, files]) => new Set(files).size > 1)
      .map(([id, files]) => `${id} in ${files.join(", ")}`);
    expect(twice).toEqual([]);
  });

  test("the sign-in page sends no ICU message parser", async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto("/signin");
    await page.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(3);
    // intl-messageformat's parser errors, by name: present wherever the parser is
    expect(scripts.filter((s) => s.body.includes("MALFORMED_ARGUMENT")).map((s) => s.url)).toEqual([]);
  });

  test("the sign-in page prefetches no page a student never opens (the reset request is for staff)", async ({
    page,
  }) => {
    const fetched: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname !== "/signin" && req.resourceType() === "fetch")
        fetched.push(new URL(req.url()).pathname);
    });
    await page.goto("/signin");
    await expect(page.getByTestId("forgot-link")).toBeVisible();
    // a prefetch starts once the link is on screen: well within the page's loading
    await page.waitForLoadState("networkidle");
    expect(fetched).toEqual([]);
  });

  test("the browser keeps the site icon (its URL carries its hash) instead of fetching it on every page", async ({
    page,
    request,
  }) => {
    await page.goto("/signin");
    const href = await page.locator('link[rel="icon"][type="image/svg+xml"]').getAttribute("href");
    expect(href).toMatch(/^\/icon\.svg\?/);
    const res = await request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("a formula in ASCII fetches only the small parts of KaTeX's two everyday fonts, and renders", async ({
    page,
  }, testInfo) => {
    const { school, students } = await makeSchool(1);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "math-linear-equations",
      schoolId: school.id,
      mode: "self",
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, students[0]!.email!, TEST_PASSWORD);
    const fonts: string[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() === "font")
        fonts.push(
          res
            .url()
            .replace(/.*\//, "")
            .replace(/\.[\w-]+\.woff2$/, ""),
        );
    });
    // the first scene: `x + 3 = 7`, `x = 4` (platform/ui/katex/katex.css, scripts/make-katex-fonts.ts)
    await page.goto(`/dashboard/student/activities/solo/${activity.id}`);
    await expect(page.locator(".katex").first()).toBeVisible();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(
      await page.evaluate(
        () => document.fonts.check("16px KaTeX_Main", "3+=7") && document.fonts.check("italic 16px KaTeX_Math", "x"),
      ),
    ).toBe(true);
    expect(fonts.sort()).toEqual(["KaTeX_Main-Regular.arithmetic", "KaTeX_Math-Italic.lower"]);
    // to look at (before and after a change of the fonts): the formula at phone size
    await page.screenshot({ path: testInfo.outputPath("math-phone.png") });
  });
});
