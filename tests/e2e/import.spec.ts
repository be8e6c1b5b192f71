import iconv from "iconv-lite";
import { expect, type Page, test } from "@playwright/test";
import { baseText, expectNotification, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

const HEADER = "学年,組,番号,氏名,ふりがな,ニックネーム,メールアドレス,グループ\r\n";

async function choose(page: Page, name: string, bytes: Buffer) {
  await page.getByTestId("import-students").click();
  await page.getByTestId("csv-file").setInputFiles({ name, mimeType: "text/csv", buffer: bytes });
}

test.describe("CSV import", () => {
  test("UTF-8 with a BOM and Shift_JIS: preview first, then everyone is imported with a QR card", async ({ page }) => {
    const { teacher, school, tag } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const names = () =>
      e2eDb().user.findMany({
        where: { schoolId: school.id, role: "student" },
        orderBy: { name: "asc" },
        select: { name: true, nameKana: true },
      });

    // the template downloads as UTF-8 with a BOM and is accepted as it is
    await page.getByTestId("import-students").click();
    const href = await page.getByTestId("csv-template").getAttribute("href");
    expect(
      decodeURIComponent(href!.replace(/^data:text\/csv;charset=utf-8,/, "")).startsWith("\uFEFF学年,組,番号,氏名"),
    ).toBe(true);
    await page.keyboard.press("Escape");

    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        `${HEADER}2,1,1,髙橋 陽翔,たかはし はると,,haruto-${tag}@test.example,A\r\n2,1,2,渡邊 さくら,わたなべ さくら,,,B\r\n`,
        "utf8",
      ),
    ]);
    await choose(page, "utf8-bom.csv", bom);
    const summary = page.getByTestId("import-summary");
    await expect(summary).toHaveAttribute("data-valid", "2");
    await expect(summary).toHaveAttribute("data-invalid", "0");
    const preview = page.getByTestId("import-preview");
    await expect(preview.locator("tbody tr")).toHaveCount(2);
    await expect(preview.locator('tr[data-line="2"]')).toContainText("髙橋 陽翔");
    expect(await names()).toEqual([]); // nothing written by the preview
    await page.getByTestId("import-commit").click();
    await expectNotification(page, "2人を読み込みました");
    await expect(page.getByTestId("import-dialog")).not.toBeVisible();
    await expect(page.getByTestId("student-table").locator("tbody tr")).toHaveCount(2);

    const sjis = iconv.encode(
      `${HEADER}2,2,1,斎藤 結菜,さいとう ゆいな,ゆいな,,A\r\n2,2,2,𠮷田 大翔,よしだ ひろと,,,B\r\n`.replace("𠮷", "吉"),
      "Shift_JIS",
    );
    expect(sjis.includes(Buffer.from("斎藤", "utf8"))).toBe(false); // really not UTF-8
    await choose(page, "excel-sjis.csv", sjis);
    await expect(summary).toHaveAttribute("data-valid", "2");
    await expect(preview.locator('tr[data-line="2"]')).toContainText("斎藤 結菜");
    await page.getByTestId("import-commit").click();
    await expect(page.getByTestId("import-dialog")).not.toBeVisible();
    await expect(page.getByTestId("student-table").locator("tbody tr")).toHaveCount(4);
    expect(await names()).toEqual([
      { name: "吉田 大翔", nameKana: "よしだ ひろと" },
      { name: "斎藤 結菜", nameKana: "さいとう ゆいな" },
      { name: "渡邊 さくら", nameKana: "わたなべ さくら" },
      { name: "髙橋 陽翔", nameKana: "たかはし はると" },
    ]);
    // imported students get a QR card
    expect(await e2eDb().signinCode.count({ where: { user: { schoolId: school.id }, revokedAt: null } })).toBe(4);
  });

  test("a file with errors shows each row's line and reason and writes nothing", async ({ page }) => {
    const { teacher, school, students, tag } = await makeSchool(1);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const csv =
      HEADER +
      `1,2,1,正しい 行,,,ok-${tag}@test.example,\r\n` +
      "1,2,2,,,,,\r\n" +
      "1,,3,組なし,,,,\r\n" +
      `1,2,4,重複 メール,,,${students[0]!.email},\r\n` +
      "1,1,1,同じ 番号,,,,\r\n";
    await choose(page, "errors.csv", Buffer.from(csv, "utf8"));
    const summary = page.getByTestId("import-summary");
    await expect(summary).toHaveAttribute("data-invalid", "4");
    expect(await baseText(summary)).toContain("5行のうち4行にエラーがあります");
    const preview = page.getByTestId("import-preview");
    await expect(preview.locator('tr[data-line="2"]')).toHaveAttribute("data-errors", "");
    await expect(preview.locator('tr[data-line="3"]')).toHaveAttribute("data-errors", "missingName");
    expect(await baseText(preview.locator('tr[data-line="3"] td').last())).toBe("氏名がありません");
    await expect(preview.locator('tr[data-line="4"]')).toHaveAttribute("data-errors", "badClass");
    await expect(preview.locator('tr[data-line="5"]')).toHaveAttribute("data-errors", "emailInUse");
    await expect(preview.locator('tr[data-line="6"]')).toHaveAttribute("data-errors", "duplicateSeat");
    await expect(page.getByTestId("import-commit")).toBeDisabled();
    expect(await e2eDb().user.count({ where: { schoolId: school.id, role: "student" } })).toBe(1);

    // a file that is not a student list at all
    await page
      .getByTestId("csv-file")
      .setInputFiles({ name: "other.csv", mimeType: "text/csv", buffer: Buffer.from("商品,値段\nりんご,100\n") });
    await expect(page.getByTestId("import-error")).toHaveAttribute("data-code", "noHeader");
    expect(await e2eDb().user.count({ where: { schoolId: school.id, role: "student" } })).toBe(1);
  });
});
