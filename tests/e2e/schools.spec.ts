import { expect, test } from "@playwright/test";
import { baseText, expectNotification, signIn, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

test("manager: creates a school, adds a teacher who can then sign in, moves and stops them; other academies never appear", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const { manager, school, tag } = await makeSchool(2);
  const other = await makeSchool(0);
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/schools");
  const cards = page.getByTestId("manage-schools").locator(":scope > li");
  await expect(cards).toHaveCount(1);
  expect(await baseText(cards.first().getByTestId("school-counts"))).toBe("先生1人・生徒2人");
  await expect(page.locator(`[data-school-id="${other.school.id}"]`)).toHaveCount(0);
  await expect(page.getByText(other.school.name)).toHaveCount(0);

  // create a school
  await page.getByTestId("create-school").click();
  const create = page.getByTestId("create-school-dialog");
  await create.locator('input[name="name"]').fill(`新設小学校${tag}`);
  await create.locator('input[name="nameKana"]').fill("しんせつしょうがっこう");
  await create.getByTestId("create-school-save").click();
  await expectNotification(page, "学校を追加しました");
  await expect(cards).toHaveCount(2);
  const created = page.locator(`li[data-school-name="新設小学校${tag}"]`);
  await expect(created.getByTestId("no-teachers")).toBeVisible();

  // add a teacher there: the password is shown once and works
  const email = `new-teacher-${tag}@test.example`;
  await created.getByTestId("add-teacher").click();
  const add = created.getByTestId("add-teacher-dialog");
  await add.locator('input[name="name"]').fill("新任 先生");
  await add.locator('input[name="nameKana"]').fill("しんにん せんせい");
  await add.locator('input[name="email"]').fill(email);
  await add.getByTestId("add-teacher-save").click();
  const shown = add.getByTestId("teacher-password");
  await expect(shown).toBeVisible();
  const password = (await shown.getAttribute("data-password"))!;
  // the same e-mail again: 'e-mail already in use'
  await add.locator('input[name="name"]').fill("二人目");
  await add.locator('input[name="email"]').fill(email);
  await add.getByTestId("add-teacher-save").click();
  await expect(add.getByTestId("add-teacher-error")).toBeVisible();
  expect(await baseText(add.getByTestId("add-teacher-error"))).toBe("このメールアドレスはすでに使われています。");
  await add.getByRole("button", { name: /閉/ }).click();

  const teacherContext = await browser.newContext();
  const teacherPage = await teacherContext.newPage();
  await teacherPage.goto("/signin");
  await signIn(teacherPage, email, password);
  await expect(teacherPage).toHaveURL("/dashboard/teacher/home");

  // move them to the first school, then stop them: their next request signs them out
  await page.reload();
  const row = page.locator(`tr[data-email="${email}"]`);
  await row.getByTestId("move-target").selectOption(school.id);
  await row.getByTestId("move-teacher").click();
  await expectNotification(page, "先生を移動しました");
  expect((await e2eDb().user.findUniqueOrThrow({ where: { email } })).schoolId).toBe(school.id);
  await expect(page.locator(`li[data-school-id="${school.id}"] tr[data-email="${email}"]`)).toBeVisible();
  await page.locator(`tr[data-email="${email}"]`).getByTestId("toggle-teacher").click();
  await page.locator('dialog[open] [data-testid="confirm-ok"]').click();
  await expectNotification(page, "利用を停止しました");
  await teacherPage.goto("/dashboard/teacher/students");
  await expect(teacherPage).toHaveURL("/signin?error=userDisabled");
  await teacherContext.close();

  // rename
  const renamed = page.locator(`li[data-school-name="新設小学校${tag}"]`);
  await renamed.getByTestId("rename-school").click();
  await renamed.getByTestId("rename-school-dialog").locator('input[name="name"]').fill(`改名小学校${tag}`);
  await renamed.getByTestId("rename-school-save").click();
  await expectNotification(page, "学校の名前を変更しました");
  await expect(page.locator(`li[data-school-name="改名小学校${tag}"]`)).toBeVisible();
  expect(await e2eDb().school.count({ where: { academyId: other.academy.id } })).toBe(1);
});
