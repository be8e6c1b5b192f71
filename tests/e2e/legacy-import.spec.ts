import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { readLegacyExport } from "@/features/rostering/shared/legacy-format";
import { runImport } from "@/features/rostering/server/legacy-import";
import { uniqueTag } from "../../prisma/seed/factories";
import { generateExport, passwordOf } from "../fixtures/legacy-export";
import { baseText, expectNotification, signInAs } from "./helpers";
import { e2eDb, signinCodeKey } from "./db";
import { qrCodesOnPage } from "./qr";

/**
 * After a legacy import, the imported teacher signs in with their legacy
 * password, sees their students "unassigned" (the legacy product kept no
 * class), prints sign-in sheets at once, and gives a student a class.
 */
test("an imported teacher signs in with the legacy password, prints sheets for unassigned students and gives one a class", async ({
  page,
  browser,
}, info) => {
  const tag = uniqueTag().toLowerCase();
  // one academy, one school: 2 managers, 4 teachers, 3 students
  const { data } = generateExport(9, { academies: 1, schools: 1, prefix: `lg${tag}` });
  const read = readLegacyExport(data);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const result = await runImport(e2eDb(), read.data, { dryRun: false, signinCodeKey: signinCodeKey() });
  expect(result.ok && result.counts.users.created).toBe(9);

  const teacherId = `lg${tag}-u00002`;
  const studentIds = [`lg${tag}-u00006`, `lg${tag}-u00007`, `lg${tag}-u00008`];
  await signInAs(page, `${teacherId}@generated.example`, passwordOf(teacherId));
  await page.goto("/dashboard/teacher/students");
  const row = (uid: string) => page.locator(`tr[data-email="${uid}@generated.example"]`);
  for (const uid of studentIds) expect(await baseText(row(uid).getByTestId("seat-unset"))).toBe("未設定");
  await page.screenshot({ path: info.outputPath("imported-students.png"), fullPage: true });

  // sheets right after the import: one card per student, without a class line, each QR signs in
  const ids = (await e2eDb().user.findMany({ where: { legacyId: { in: studentIds } }, select: { id: true } })).map(
    (u) => u.id,
  );
  const res = await page.request.post("/api/students/sheets", { form: { ids: ids.join(",") } });
  expect(res.status()).toBe(200);
  const dir = info.outputPath("sheets");
  mkdirSync(dir, { recursive: true });
  const pdf = path.join(dir, "sheets.pdf");
  writeFileSync(pdf, await res.body());
  const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
  for (const i of [6, 7, 8]) expect(text).toContain(`生徒 ${i}`);
  expect(text).not.toContain("null");
  const urls = qrCodesOnPage(pdf, 1, 3).codes;
  expect(urls).toHaveLength(3);
  const kid = await browser.newContext();
  const kidPage = await kid.newPage();
  await kidPage.goto(urls[0]!);
  await expect(kidPage.getByTestId("code-confirm")).toBeVisible();
  await kid.close();

  // the teacher gives one student a class and number
  const first = studentIds[0]!;
  await row(first).getByTestId("edit-student").click();
  const edit = row(first).getByTestId("edit-student-dialog");
  await edit.locator('input[name="grade"]').fill("2");
  await edit.locator('input[name="className"]').fill("3");
  await edit.locator('input[name="number"]').fill("7");
  await edit.getByTestId("edit-student-save").click();
  await expectNotification(page, "保存しました");
  await expect(row(first).getByTestId("seat-unset")).toHaveCount(0);
  expect(await baseText(row(first).locator("td.num"))).toBe("2年3組 7");
  expect(
    await e2eDb().studentDetail.findFirstOrThrow({
      where: { user: { legacyId: first } },
      select: { grade: true, className: true, number: true },
    }),
  ).toEqual({
    grade: 2,
    className: "3",
    number: 7,
  });
});
