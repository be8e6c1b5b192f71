import { expect, test } from "@playwright/test";
import { createSchool, createUser } from "../../prisma/seed/factories";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { baseText, expectAccessible, expectNotification, signInAs } from "./helpers";

test("manager: a school's teachers and students, read-only, with their counts", async ({ page }) => {
  test.setTimeout(90_000);
  const { manager, school, students } = await makeSchool(3);
  await createUser(e2eDb(), {
    role: "teacher",
    email: `stopped-${school.id}@test.example`,
    schoolId: school.id,
    name: "停止 先生",
    nameKana: "ていし せんせい",
    disabled: true,
  });
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/schools");
  await page.locator(`li[data-school-id="${school.id}"]`).getByTestId("school-people-link").click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/manager/schools/${school.id}$`));
  expect(await baseText(page.getByTestId("teachers-heading"))).toBe("先生（2人）");
  expect(await baseText(page.getByTestId("students-heading"))).toBe("生徒（3人）");
  const rows = page.getByTestId("students-table").locator("tbody tr");
  await expect(rows).toHaveCount(3);
  // by seat, with the seat and the name as a person reads them
  expect(await baseText(rows.nth(0).locator("td").first())).toBe("1年1組1番");
  expect(await baseText(rows.nth(2).locator("th"))).toBe(students[2]!.name);
  expect(await baseText(page.getByTestId("teachers-table"))).toContain("停止中");
  // read-only: nothing to press in the lists
  await expect(page.locator("table button, table input, table select")).toHaveCount(0);
  await expectAccessible(page);
  await page.getByTestId("back-to-schools").click();
  await expect(page).toHaveURL(/\/dashboard\/manager\/schools$/);
});

test("manager: deleting a school asks first; one that still holds people is refused with what to do, an empty one goes", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { manager, school, academy, tag } = await makeSchool(1);
  const empty = await createSchool(e2eDb(), {
    academyId: academy.id,
    name: `空の学校${tag}`,
    nameKana: "からのがっこう",
  });
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/schools");
  const full = page.locator(`li[data-school-id="${school.id}"]`);
  const vacant = page.locator(`li[data-school-id="${empty.id}"]`);

  // cancelling changes nothing
  await vacant.getByTestId("delete-school").click();
  await expect(page.getByTestId("confirm-body")).toContainText(`空の学校${tag}`);
  await page.getByTestId("confirm-cancel").click();
  await expect(vacant).toBeVisible();

  await full.getByTestId("delete-school").click();
  await page.getByTestId("confirm-ok").click();
  await expectNotification(page, "削除できません");
  await expect(full).toBeVisible();
  expect(await e2eDb().school.count({ where: { id: school.id } })).toBe(1);

  await vacant.getByTestId("delete-school").click();
  await page.getByTestId("confirm-ok").click();
  await expectNotification(page, "学校を削除しました");
  await expect(vacant).toHaveCount(0);
  expect(await e2eDb().school.count({ where: { id: empty.id } })).toBe(0);
});
