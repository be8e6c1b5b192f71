import { expect, type Page, test } from "@playwright/test";

/**
 * What a student's tablet downloads on a first day (scripts/bench/bytes.ts
 * measures the bytes; these check the causes): the browser keeps the icon,
 * and no ICU message parser is sent (the catalogues are compiled at build time).
 */

/** The scripts a page's visit fetched (in order), with their text. */
function recordScripts(page: Page) {
  const scripts: { url: string; body: string }[] = [];
  page.on("response", async (res) => {
    if (res.request().resourceType() !== "script" || !res.url().includes("/_next/static/")) return;
    scripts.push({ url: res.url(), body: await res.text().catch(() => "") });
  });
  return scripts;
}

test.describe("a student's first day downloads no more than it needs", () => {
  test("the sign-in page sends no ICU message parser", async ({ page }) => {
    const scripts = recordScripts(page);
    await page.goto("/signin");
    await page.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(3);
    // intl-messageformat's parser errors, by name: present wherever the parser is
    expect(scripts.filter((s) => s.body.includes("MALFORMED_ARGUMENT")).map((s) => s.url)).toEqual([]);
  });

  test("the browser keeps the site icon (its URL carries its hash) instead of fetching it on every page", async ({ page, request }) => {
    await page.goto("/signin");
    const href = await page.locator('link[rel="icon"][type="image/svg+xml"]').getAttribute("href");
    expect(href).toMatch(/^\/icon\.svg\?/);
    const res = await request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});
