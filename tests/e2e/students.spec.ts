import { writeFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate, createResponse, createUser } from "../../prisma/seed/factories";
import { baseText, confirmOpenDialog, expectNotification, signIn, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { qrCodesIn } from "./qr";

const rowOf = (page: Page, email: string) => page.locator(`tr[data-email="${email}"]`);
/** Opens the row's "more" menu and chooses an action there. */
async function rowAction(page: Page, email: string, testId: string) {
  await rowOf(page, email).getByTestId("row-menu").click();
  await rowOf(page, email).getByTestId(testId).click();
}
/** Chooses the confirming button of the open confirmation dialog. */

/** Opens the student's QR dialog, saves the PNG and decodes it with zbarimg (a real QR reader). */
async function qrUrlOf(page: Page, email: string, file: string): Promise<string> {
  await rowOf(page, email).getByTestId("show-qr").click();
  const dialog = rowOf(page, email).getByTestId("qr-dialog");
  await expect(dialog.getByTestId("qr-image")).toBeVisible();
  const href = await dialog.getByTestId("qr-download").getAttribute("href");
  writeFileSync(file, Buffer.from(href!.replace(/^data:image\/png;base64,/, ""), "base64"));
  await dialog.getByRole("button").last().click();
  return qrCodesIn(file).join("\n");
}

test.describe("student management", () => {
  test("adds a student who can sign in with the password shown once", async ({ page, browser }) => {
    const { teacher, tag } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    await expect(page.getByTestId("students-empty")).toBeVisible();
    await page.getByTestId("add-student").click();
    const dialog = page.getByTestId("add-student-dialog");
    const email = `new-${tag}@test.example`;
    await dialog.locator('input[name="name"]').fill("新井 葵");
    await dialog.locator('input[name="nameKana"]').fill("あらい あおい");
    await dialog.locator('input[name="email"]').fill(email);
    await dialog.locator('input[name="number"]').fill("7");
    await dialog.locator('input[name="group"]').fill("B");
    await dialog.getByTestId("add-student-save").click();
    const shown = dialog.getByTestId("initial-password");
    await expect(shown).toBeVisible();
    const password = (await shown.getAttribute("data-password"))!;
    expect(password).toMatch(/^[a-z2-9]{10}$/);
    const stored = await e2eDb().user.findUniqueOrThrow({ where: { email }, select: { passwordHash: true } });
    expect(stored.passwordHash).not.toContain(password);

    // the same e-mail again: 'e-mail already in use', nothing written
    await dialog.locator('input[name="name"]').fill("別の 人");
    await dialog.locator('input[name="email"]').fill(email);
    await dialog.locator('input[name="number"]').fill("8");
    await dialog.getByTestId("add-student-save").click();
    await expect(dialog.getByTestId("add-student-error")).toBeVisible();
    expect(await baseText(dialog.getByTestId("add-student-error"))).toContain("すでに使われています");
    expect(await e2eDb().user.count({ where: { email } })).toBe(1);

    // the same seat again (1-1-7): 'a student with this grade, class and number exists', nothing written
    await dialog.locator('input[name="email"]').fill(`seat-${tag}@test.example`);
    await dialog.locator('input[name="number"]').fill("7");
    await dialog.getByTestId("add-student-save").click();
    await expect
      .poll(async () => baseText(dialog.getByTestId("add-student-error")))
      .toContain("同じ学年・組・番号の生徒がすでにいます");
    expect(await e2eDb().user.count({ where: { email: `seat-${tag}@test.example` } })).toBe(0);

    const kid = await browser.newContext();
    const kidPage = await kid.newPage();
    await kidPage.goto("/signin");
    await signIn(kidPage, email, password);
    await expect(kidPage).toHaveURL("/dashboard/student/home");
    await kid.close();
  });

  test("QR codes: decode, sign in twice (reusable), a new code invalidates the printed one", async ({
    page,
    browser,
  }, info) => {
    // three sign-ins in new browsers, two codes decoded from screenshots and three confirmations: over a minute on a
    // loaded 2-core machine (a CI run on one timed out at 60 s)
    test.setTimeout(180_000);
    const { teacher, students } = await makeSchool(1);
    const email = students[0]!.email!;
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const first = await qrUrlOf(page, email, info.outputPath("qr1.png"));
    expect(first).toMatch(/\/auth\/auth-with-code\?code=[A-Za-z0-9_-]{22}$/);
    expect(first).toContain(students[0]!.code);

    for (let i = 0; i < 2; i++) {
      const ctx = await browser.newContext();
      const p = await ctx.newPage();
      await p.goto(first);
      await expect(p.getByTestId("code-confirm")).toBeVisible();
      await ctx.close();
    }

    await rowAction(page, email, "new-code");
    await confirmOpenDialog(page);
    await expectNotification(page, "新しいコードを発行しました");
    const second = await qrUrlOf(page, email, info.outputPath("qr2.png"));
    expect(second).not.toBe(first);
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await p.goto(first);
    await expect(p.getByTestId("code-error")).toHaveAttribute("data-code", "invalidCode");
    await p.goto(second);
    await expect(p.getByTestId("code-confirm")).toBeVisible();
    await ctx.close();

    // revoking leaves the student without a card that works, and without a QR to show
    await rowAction(page, email, "revoke-code");
    await confirmOpenDialog(page);
    await expectNotification(page, "コードを無効にしました");
    await expect(rowOf(page, email).getByTestId("show-qr")).toBeDisabled();
    const ctx2 = await browser.newContext();
    const p2 = await ctx2.newPage();
    await p2.goto(second);
    await expect(p2.getByTestId("code-error")).toHaveAttribute("data-code", "invalidCode");
    await ctx2.close();
  });

  test("stops and resumes a student, and resets a password", async ({ page, browser }) => {
    const { teacher, students } = await makeSchool(1);
    const email = students[0]!.email!;
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    await rowAction(page, email, "toggle-disabled");
    await expectNotification(page, "利用を停止しました");
    await expect.poll(() => baseText(rowOf(page, email).getByTestId("status"))).toBe("停止中");
    expect((await e2eDb().user.findUniqueOrThrow({ where: { email } })).disabled).toBe(true);
    await rowAction(page, email, "toggle-disabled");
    await expectNotification(page, "利用を再開しました");

    await rowAction(page, email, "reset-password");
    const shown = rowOf(page, email).getByTestId("new-password");
    await expect(shown).toBeVisible();
    const password = (await shown.getAttribute("data-password"))!;
    const kid = await browser.newContext();
    const kidPage = await kid.newPage();
    await kidPage.goto("/signin");
    await signIn(kidPage, email, TEST_PASSWORD);
    await expect(kidPage.getByTestId("signin-error")).toHaveAttribute("data-code", "wrongPassword");
    await signIn(kidPage, email, password);
    await expect(kidPage).toHaveURL("/dashboard/student/home");
    await kid.close();
  });

  test("pages, sorts, filters by class and searches by kana, on the server", async ({ page }) => {
    const { teacher, school } = await makeSchool(55);
    await e2eDb().studentDetail.updateMany({
      where: { user: { schoolId: school.id }, number: { gt: 50 } },
      data: { className: "2" },
    });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const rows = page.getByTestId("student-table").locator("tbody tr");
    await expect(rows).toHaveCount(50);
    expect(await baseText(page.getByTestId("page-info"))).toBe("1 / 2ページ");
    await page.getByTestId("next-page").click();
    await expect(rows).toHaveCount(5);
    await page.goto("/dashboard/teacher/students?class=1:2");
    await expect(rows).toHaveCount(5);
    await page.goto("/dashboard/teacher/students");
    await page.getByTestId("student-search").fill("はなこ12");
    await page.getByTestId("student-search").press("Enter");
    await expect(rows).toHaveCount(1);
    await page.goto("/dashboard/teacher/students?sort=grade&dir=desc");
    await expect(rows.first()).toContainText("55");
  });

  test("a teacher without a school gets 'no permission to access this page'", async ({ page }) => {
    const lonely = await createUser(e2eDb(), {
      role: "teacher",
      email: `lonely-${Date.now()}@test.example`,
      password: TEST_PASSWORD,
      schoolId: null,
    });
    await signInAs(page, lonely.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    await expect(page.getByTestId("no-permission")).toBeVisible();
    expect(await baseText(page.getByTestId("no-permission"))).toBe("このページを見る権限がありません。");
  });
});

test("counterbalance groups: set one student's, then assign balanced by class number", async ({ page }) => {
  const { teacher, school, students } = await makeSchool(4);
  await e2eDb().studentDetail.updateMany({
    where: { user: { schoolId: school.id } },
    data: { counterbalanceGroup: null },
  });
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/students");
  await rowOf(page, students[2]!.email!).getByTestId("group-select").selectOption("B");
  await expectNotification(page, "グループを変更しました");
  expect(
    (await e2eDb().studentDetail.findUniqueOrThrow({ where: { userId: students[2]!.id } })).counterbalanceGroup,
  ).toBe("B");

  await page.getByTestId("balance-groups").click();
  await confirmOpenDialog(page);
  await expectNotification(page, "4人にグループを割り当てました");
  const groups = await e2eDb().studentDetail.findMany({
    where: { user: { schoolId: school.id } },
    orderBy: { number: "asc" },
    select: { counterbalanceGroup: true },
  });
  expect(groups.map((g) => g.counterbalanceGroup)).toEqual(["A", "B", "A", "B"]);
});

test("edits a student, acts on a selection (group, code expiry, stop), and deletes a student with their answers", async ({
  page,
  browser,
}) => {
  const { teacher, school, students } = await makeSchool(3);
  const [first, second, third] = students as [
    (typeof students)[number],
    (typeof students)[number],
    (typeof students)[number],
  ];
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id },
    orderBy: { position: "asc" },
  });
  await createResponse(e2eDb(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: third.id,
    answer: { type: "info" },
    scenePosition: 0,
  });
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/students");

  // edit
  await rowOf(page, first.email!).getByTestId("edit-student").click();
  const edit = rowOf(page, first.email!).getByTestId("edit-student-dialog");
  await edit.locator('input[name="name"]').fill("編集 済子");
  await edit.locator('input[name="nameKana"]').fill("へんしゅう 1"); // not kana: refused, and what was typed stays
  await edit.getByTestId("edit-student-save").click();
  expect(await baseText(edit.getByTestId("edit-student-error"))).toBe("ふりがなはひらがなかカタカナで書いてください");
  await expect(edit.locator('input[name="name"]')).toHaveValue("編集 済子");
  await edit.locator('input[name="nameKana"]').fill("へんしゅう すみこ");
  await edit.locator('input[name="nickname"]').fill("へんしゅう");
  await edit.locator('input[name="number"]').fill("31");
  await edit.getByTestId("edit-student-save").click();
  await expectNotification(page, "保存しました");
  await expect(edit).not.toBeVisible();
  await expect(rowOf(page, first.email!).getByRole("rowheader")).toContainText("編集");
  expect(
    await e2eDb().user.findUniqueOrThrow({
      where: { id: first.id },
      select: { name: true, nickname: true, student: { select: { number: true } } },
    }),
  ).toEqual({
    name: "編集 済子",
    nickname: "へんしゅう",
    student: { number: 31 },
  });

  // selection: the bar appears with the count
  await expect(page.getByTestId("bulk-hint")).toBeVisible();
  await rowOf(page, first.email!).getByTestId("row-select").check();
  await rowOf(page, second.email!).getByTestId("row-select").check();
  expect(await baseText(page.getByTestId("selected-count"))).toBe("2人を選択中");
  await page.getByTestId("bulk-group").selectOption("B");
  await page.getByTestId("bulk-set-group").click();
  await expectNotification(page, "グループを変更しました");
  const groupsOf = async () =>
    (
      await e2eDb().studentDetail.findMany({
        where: { userId: { in: [first.id, second.id, third.id] } },
        orderBy: { number: "asc" },
      })
    ).map((d) => d.counterbalanceGroup);
  // by number: 2 (selected → B), 3 (not selected, keeps A), 31 (the edited one, selected → B)
  expect(await groupsOf()).toEqual(["B", "A", "B"]);

  await page.getByTestId("bulk-expiry").fill("2099-03-31");
  await page.getByTestId("bulk-set-expiry").click();
  await expectNotification(page, "有効期限を変更しました");
  await expect(rowOf(page, second.email!).getByTestId("code-expiry")).toHaveAttribute("data-day", "2099-03-31");
  await expect(rowOf(page, third.email!).getByTestId("code-expiry")).toHaveCount(0);

  // a code whose expiry has passed no longer signs in
  await page.getByTestId("bulk-expiry").fill("2020-03-31");
  await page.getByTestId("bulk-set-expiry").click();
  await expectNotification(page, "有効期限を変更しました");
  // the first change's notification may still be showing: the row saying the code expired is this change's
  await expect(rowOf(page, second.email!).getByTestId("code-state")).toHaveAttribute("data-state", "expired");
  const kid = await browser.newContext();
  const kidPage = await kid.newPage();
  await kidPage.goto(`/auth/auth-with-code?code=${second.code}`);
  await expect(kidPage.getByTestId("code-error")).toHaveAttribute("data-code", "invalidCode");
  await kid.close();

  await page.getByTestId("bulk-disable").click();
  await expectNotification(page, "利用を停止しました");
  expect((await e2eDb().user.findMany({ where: { id: { in: [first.id, second.id] } } })).every((u) => u.disabled)).toBe(
    true,
  );
  await page.getByTestId("bulk-clear").click();
  await expect(page.getByTestId("bulk-hint")).toBeVisible();

  // delete: the dialog says the answers go too; cancel keeps everything, confirm deletes
  await rowAction(page, third.email!, "delete-student");
  const body = page.locator('dialog[open] [data-testid="confirm-body"]');
  expect(await baseText(body)).toContain("その回答（1件）をすべて削除します");
  await page.locator('dialog[open] [data-testid="confirm-cancel"]').click();
  expect(await e2eDb().user.count({ where: { id: third.id } })).toBe(1);
  await rowAction(page, third.email!, "delete-student");
  await confirmOpenDialog(page);
  await expectNotification(page, "1人を削除しました");
  await expect(rowOf(page, third.email!)).toHaveCount(0);
  expect(await e2eDb().response.count({ where: { userId: third.id } })).toBe(0);
});
