import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { storageStateOf } from "./helpers";
import { pdfPageCount, qrCodesOnPage } from "./qr";

test.describe("sign-in sheets (PDF)", () => {
  test.use({ storageState: storageStateOf("teacher") });

  test("1年1組: one QR per student that signs in (twice), Japanese names in the text", async ({
    page,
    browser,
  }, info) => {
    test.setTimeout(90_000); // two 40-card PDFs rendered, rasterised and decoded: slow on a loaded machine
    const res = await page.request.post("/api/students/sheets", { form: { class: "1:1" } });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toBe("application/pdf");
    const dir = info.outputPath("sheets");
    execFileSync("mkdir", ["-p", dir]);
    const pdf = path.join(dir, "sheets.pdf");
    writeFileSync(pdf, await res.body());

    const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
    for (const name of ["青木 陽翔", "渡辺 真央", "デモ第一中学校"]) expect(text).toContain(name);
    expect(text).toContain("あおき はると"); // furigana in the reading-aids language

    expect(pdfPageCount(pdf)).toBe(5); // 40 cards, 8 per page
    const pages = Array.from({ length: 5 }, (_, i) => qrCodesOnPage(pdf, i + 1, 8));
    await info.attach("sheet-page-1", { path: pages[0]!.image, contentType: "image/png" });
    const urls = pages.flatMap((p) => p.codes);
    expect(urls).toHaveLength(40);
    expect(new Set(urls).size).toBe(40);
    for (const url of urls) expect(url).toMatch(/\/auth\/auth-with-code\?code=[A-Za-z0-9_-]{22}$/);

    for (let i = 0; i < 2; i++) {
      const ctx = await browser.newContext();
      const kid = await ctx.newPage();
      await kid.goto(urls[0]!);
      await expect(kid.getByTestId("code-confirm")).toBeVisible();
      await ctx.close();
    }

    // printing again shows the same codes
    const again = await page.request.post("/api/students/sheets", { form: { class: "1:1" } });
    const pdf2 = path.join(dir, "again.pdf");
    writeFileSync(pdf2, await again.body());
    const againUrls = qrCodesOnPage(pdf2, 1, 8).codes;
    expect(againUrls.sort()).toEqual(urls.slice(0, 8).sort());
  });
});

test.describe("sign-in sheets: refusals", () => {
  test("signed out 401; student and manager 403; a class with nobody 404", async ({ browser }) => {
    const anon = await browser.newContext();
    expect((await anon.request.post("/api/students/sheets", { form: { class: "1:1" } })).status()).toBe(401);
    await anon.close();
    for (const role of ["student", "manager"] as const) {
      const ctx = await browser.newContext({ storageState: storageStateOf(role) });
      expect((await ctx.request.post("/api/students/sheets", { form: { class: "1:1" } })).status()).toBe(403);
      await ctx.close();
    }
    const teacher = await browser.newContext({ storageState: storageStateOf("teacher") });
    expect((await teacher.request.post("/api/students/sheets", { form: { class: "1:9" } })).status()).toBe(404);
    expect((await teacher.request.post("/api/students/sheets", { form: { ids: "not-a-uuid" } })).status()).toBe(400);
    await teacher.close();
  });
});
