import { type Browser, expect, type Page, test } from "@playwright/test";
import { chooseLanguage, expectNotification, signInAs, visibleText } from "./helpers";
import { makeSchool, TEST_PASSWORD } from "./db";

/**
 * Furigana is for students (docs/adr/0002-language-at-sign-in.md): staff see plain Japanese unless they
 * switch; a student's language, set by the teacher, is theirs at sign-in on
 * any device; a shared tablet does not hand one child's language to the next.
 * Ruby is per character where the reading splits.
 */
const HAN = /\p{Script=Han}/u;
const switcher = (page: Page) => page.getByTestId("language-switcher");

async function freshPage(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

async function signOut(page: Page) {
  await page.getByTestId("drawer-trigger").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/signin$/);
}

test.describe("display language follows the person", () => {
  test("a teacher on a fresh browser sees plain Japanese", async ({ browser }) => {
    const { teacher } = await makeSchool(0);
    const { context, page } = await freshPage(browser);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await expect(page.getByTestId("welcome")).toBeVisible();
    await expect(switcher(page)).toContainText("ふつう（漢字）");
    await expect(page.locator("ruby")).toHaveCount(0);
    await context.close();
  });

  test("a first-grader the teacher set to kana sees kana on a tablet never used before", async ({ browser }) => {
    const { teacher, students } = await makeSchool(1);
    const kid = students[0]!;
    const staff = await freshPage(browser);
    await signInAs(staff.page, teacher.email!, TEST_PASSWORD);
    await staff.page.goto("/dashboard/teacher/students");
    const row = staff.page.locator(`tr[data-email="${kid.email}"]`);
    await row.getByTestId("edit-student").click();
    const edit = row.getByTestId("edit-student-dialog");
    const field = edit.getByLabel("表示のことば（サインインしたとき）");
    await expect(field).toHaveValue("");
    await field.selectOption("ja-kana");
    await edit.locator('input[name="nameKana"]').fill("しけん はなこ"); // the factory's reading carries a digit
    await edit.getByTestId("edit-student-save").click();
    await expectNotification(staff.page, "保存しました");
    await staff.page.reload();
    await row.getByTestId("edit-student").click();
    await expect(field).toHaveValue("ja-kana");
    await staff.context.close();

    // the QR card, on a fresh browser: kana, no kanji anywhere
    const tablet = await freshPage(browser);
    await tablet.page.goto(`/auth/auth-with-code?code=${kid.code}`);
    await tablet.page.getByRole("button", { name: "はい、わたしです" }).click();
    await expect(tablet.page).toHaveURL("/dashboard/student/home");
    await expect(tablet.page.getByTestId("welcome")).toBeVisible();
    await expect(switcher(tablet.page)).toContainText("ひらがな");
    expect(await visibleText(tablet.page)).not.toMatch(HAN);
    await tablet.context.close();
  });

  test("a shared tablet: the next child gets the students' default, not the previous child's kana", async ({
    browser,
  }) => {
    const { students } = await makeSchool(2);
    const [first, next] = students as [(typeof students)[number], (typeof students)[number]];
    const { context, page } = await freshPage(browser);
    await signInAs(page, first.email!, TEST_PASSWORD);
    await chooseLanguage(page, "ja-kana");
    await expect(switcher(page)).toContainText("ひらがな");
    await signOut(page);
    // the sign-in page the next child meets is in the signed-out default, not the last child's choice
    await expect(switcher(page)).toContainText("ふりがなつき");
    await page.reload();
    await expect(switcher(page)).toContainText("ふりがなつき");
    await signInAs(page, next.email!, TEST_PASSWORD);
    await expect(switcher(page)).toContainText("ふりがなつき");
    await expect(page.getByTestId("welcome").locator("rt").first()).toBeVisible();
    await context.close();
  });

  test("a staff member's switch is theirs at the next sign-in on another browser", async ({ browser }) => {
    const { manager } = await makeSchool(0);
    const first = await freshPage(browser);
    await signInAs(first.page, manager.email!, TEST_PASSWORD);
    await chooseLanguage(first.page, "ja-kana");
    await expect(switcher(first.page)).toContainText("ひらがな");
    await first.context.close();

    const second = await freshPage(browser);
    await signInAs(second.page, manager.email!, TEST_PASSWORD);
    await expect(switcher(second.page)).toContainText("ひらがな");
    expect(await visibleText(second.page)).not.toMatch(HAN);
    await second.context.close();
  });
});

test.describe("a language chosen on the sign-in screen", () => {
  test("a child who chooses ひらがな before signing in gets kana, and it becomes their own on any device", async ({
    browser,
  }) => {
    const { students } = await makeSchool(1);
    const kid = students[0]!;
    const { context, page } = await freshPage(browser);
    await page.goto("/signin");
    await chooseLanguage(page, "ja-kana");
    await expect(switcher(page)).toContainText("ひらがな");
    await signInAs(page, kid.email!, TEST_PASSWORD);
    await expect(page.getByTestId("welcome")).toBeVisible();
    await expect(switcher(page)).toContainText("ひらがな");
    expect(await visibleText(page)).not.toMatch(HAN);
    await context.close();

    const other = await freshPage(browser);
    await signInAs(other.page, kid.email!, TEST_PASSWORD);
    await expect(switcher(other.page)).toContainText("ひらがな");
    await other.context.close();
  });

  test("a person's own language wins over the one chosen on the sign-in screen", async ({ browser }) => {
    const { manager } = await makeSchool(0);
    const first = await freshPage(browser);
    await signInAs(first.page, manager.email!, TEST_PASSWORD);
    await chooseLanguage(first.page, "ja-ruby");
    await expect(switcher(first.page)).toContainText("ふりがなつき");
    await first.context.close();

    const { context, page } = await freshPage(browser);
    await page.goto("/signin");
    await chooseLanguage(page, "ja-kana");
    await signInAs(page, manager.email!, TEST_PASSWORD);
    await expect(switcher(page)).toContainText("ふりがなつき");
    await context.close();
  });
});

test("ruby is per character where the reading splits: 一覧 carries いち and らん over its own kanji", async ({
  browser,
}) => {
  const { manager } = await makeSchool(0);
  const { context, page } = await freshPage(browser);
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await chooseLanguage(page, "ja-ruby");
  const ichiran = page.locator("ruby").filter({ hasText: "覧" }).first();
  await expect(ichiran.locator("rt")).toHaveText(["いち", "らん"]);
  const [ichi, ran] = await ichiran.evaluate((ruby) =>
    Array.from(ruby.querySelectorAll("rt"), (rt) => {
      const box = rt.getBoundingClientRect();
      return { right: box.right, left: box.left };
    }),
  );
  expect(ichi!.right).toBeLessThanOrEqual(ran!.left + 1); // side by side, each over its kanji
  await context.close();
});
