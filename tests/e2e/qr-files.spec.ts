import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { makeSchool, TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";
import { pdfPageCount, qrCodesIn, qrCodesOnPage } from "./qr";

test.describe("QR code files", () => {
  test("the PNG and the PDF card carry the configured public URL, never the browser's host; the PNG is named after the student", async ({
    browser,
  }, info) => {
    test.setTimeout(90_000);
    const { teacher, students } = await makeSchool(3);
    const kid = students[2]!;
    const expected = `${BASE_URL}/auth/auth-with-code?code=${kid.code}`;
    // The app is configured with AUTH_URL = BASE_URL (http://localhost:…); this teacher reaches the
    // same server by another name, as a school's tablet reaching it by its LAN address would.
    const otherName = BASE_URL.replace("//localhost", "//127.0.0.1");
    expect(otherName).not.toBe(BASE_URL);
    const ctx = await browser.newContext({ baseURL: otherName });
    const page = await ctx.newPage();
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const row = page.locator(`tr[data-email="${kid.email}"]`);
    await row.getByTestId("show-qr").click();
    const dialog = row.getByTestId("qr-dialog");
    await expect(dialog.getByTestId("qr-image")).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByTestId("qr-download").click()]);
    expect(download.suggestedFilename()).toBe("1年1組03_試験花子3.png");
    const png = info.outputPath("qr.png");
    await download.saveAs(png);
    const pngUrl = qrCodesIn(png);
    expect(pngUrl).toEqual([expected]);

    // the printed card of the same student, asked for from the same browser
    const res = await page.request.post("/api/students/sheets", { form: { ids: kid.id } });
    expect(res.status()).toBe(200);
    const dir = info.outputPath("sheet");
    execFileSync("mkdir", ["-p", dir]);
    writeFileSync(path.join(dir, "sheet.pdf"), await res.body());
    expect(pdfPageCount(path.join(dir, "sheet.pdf"))).toBe(1);
    expect(qrCodesOnPage(path.join(dir, "sheet.pdf"), 1, 1).codes).toEqual(pngUrl);
    await ctx.close();
  });
});
