import { expect, type Page, test } from "@playwright/test";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { baseText, expectAccessible, expectNotification, signInAs } from "./helpers";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

async function copy(page: Page, templateId: string, title: string) {
  const card = page.locator(`[data-template-id="${templateId}"]`);
  await card.locator('input[name="title"]').fill(title);
  await card.getByTestId("copy-template").click();
  await expectNotification(page, "追加しました");
}

const row = (page: Page, title: string) =>
  page
    .getByTestId("activity-table")
    .locator("tbody tr")
    .filter({ has: page.locator("th", { hasText: title }) });

test.describe("activity management (teacher)", () => {
  test("library, copy with and without a title, all four modes, archive, restore, delete, copy again", async ({
    page,
  }) => {
    const { teacher, school } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await expect(page.getByTestId("none-running")).toBeVisible();
    await page.getByTestId("manage-link").click();
    await expect(page).toHaveURL("/dashboard/teacher/activities");
    await expect(page.getByTestId("activities-empty")).toBeVisible();
    await expect(page.getByTestId("template-library").locator(":scope > li")).toHaveCount(4);
    const preview = page.locator('[data-template-id="math-linear-equations"]').getByTestId("template-preview");
    await preview.locator("summary").click();
    await expect(preview.locator("ol > li")).toHaveCount(5);
    await expect(preview.locator(".katex").first()).toBeVisible(); // the template's math, typeset
    await expectAccessible(page);

    await copy(page, "reflection-weekly", "２学期のふりかえり");
    await copy(page, "science-dissolve", "");
    await expect(row(page, "２学期のふりかえり")).toHaveCount(1);
    const science = row(page, "予想");
    await expect(science).toHaveCount(1);
    expect(await baseText(science.locator("th"))).toMatch(/^ものの溶け方を予想しよう \d{4}年度$/); // the title, then its academic year
    await expect(science.locator("td.num").first()).toHaveText("5");

    const select = row(page, "２学期のふりかえり").getByTestId("mode-select");
    const storedMode = async () =>
      (await e2eDb().activity.findFirstOrThrow({ where: { schoolId: school.id, title: "２学期のふりかえり" } })).mode;
    for (const mode of ["guide", "self", "complete", "standby"]) {
      await select.selectOption(mode);
      await expectNotification(page, "モードを変更しました");
      // the last change's notification may still be showing: wait for this one's mode, stored and shown
      await expect.poll(storedMode).toBe(mode);
      await expect(select).toHaveValue(mode);
    }

    await row(page, "予想").getByTestId("archive").click();
    await expectNotification(page, "アーカイブしました");
    await expect(row(page, "予想")).toHaveCount(0);
    await page.getByTestId("tab-archived").click();
    await expect(row(page, "予想")).toHaveCount(1);
    await row(page, "予想").getByTestId("restore").click();
    await expect(row(page, "予想")).toHaveCount(0);
    await page.getByTestId("tab-active").click();
    await row(page, "予想").getByTestId("archive").click();
    await expect(row(page, "予想")).toHaveCount(0);
    await page.getByTestId("tab-archived").click();

    await row(page, "予想").getByTestId("delete").click();
    const dialog = page.getByTestId("delete-dialog");
    await expect(dialog).toBeVisible();
    expect(await baseText(page.getByTestId("delete-body"))).toContain("ものの溶け方を予想しよう");
    expect(await baseText(page.getByTestId("delete-body"))).toContain("元に戻せません");
    await page.keyboard.press("Escape"); // cancelling changes nothing
    await expect(dialog).not.toBeVisible();
    await expect(row(page, "予想")).toHaveCount(1);
    await row(page, "予想").getByTestId("delete").click();
    await page.getByTestId("delete-confirm").click();
    await expectNotification(page, "削除しました");
    await expect(page.getByTestId("activities-empty")).toBeVisible();
    expect(await e2eDb().activity.count({ where: { schoolId: school.id, templateId: "science-dissolve" } })).toBe(0);

    await page.getByTestId("tab-active").click();
    await copy(page, "science-dissolve", "");
    await expect(row(page, "予想")).toHaveCount(1);
  });

  test("a teacher never sees another school's activities", async ({ browser }) => {
    const { teacher } = await makeSchool(0);
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/activities");
    await expect(page.getByTestId("activities-empty")).toBeVisible();
    // the demo school's own copies (not the shared template library) never show
    await expect(page.locator("body")).not.toContainText("２組");
    await page.getByTestId("tab-archived").click();
    await expect(page.getByTestId("activities-empty")).toBeVisible();
    await expect(page.locator("body")).not.toContainText("１学期");
    await context.close();
  });
});

test.describe("activity management (manager)", () => {
  test("adds an activity to a school of the academy from the library", async ({ page }) => {
    const { manager, school } = await makeSchool(0);
    await signInAs(page, manager.email!, TEST_PASSWORD);
    const card = page.locator(`[data-school-id="${school.id}"]`);
    await expect(card.getByTestId("count-activities")).toHaveText("0");
    await card.getByRole("link").click();
    await expect(page).toHaveURL(`/dashboard/manager/activities/${school.id}`);
    await copy(page, "math-linear-equations", "");
    await expect(row(page, "方程式")).toHaveCount(1);
    // managers edit their academy's schools' activities, on a page naming the school
    await expect(row(page, "方程式").getByRole("link", { name: "編集" })).toHaveAttribute(
      "href",
      new RegExp(`^/dashboard/manager/activities/edit/${school.id}/[0-9a-f-]{36}$`),
    );
    await page.goto("/dashboard/manager/home");
    await expect(card.getByTestId("count-activities")).toHaveText("1");
  });

  test("a school of another academy is no access, and nothing of it leaks", async ({ page }) => {
    await signInAs(page, "manager2@example.com");
    // in-area pages stream behind the loading state, so this no-access page comes with a 200
    await page.goto(`/dashboard/manager/activities/${DEMO_IDS.school1}`);
    await expect(page.getByTestId("error-page")).toBeVisible();
    for (const secret of ["デモ第一中学校", "２組", "方程式"])
      await expect(page.locator("body")).not.toContainText(secret);
    await page.goto("/dashboard/manager/activities/not-a-uuid");
    await expect(page.getByTestId("error-page")).toBeVisible();
  });
});

test("the teacher home lists running activities with a quick mode change, and recent results", async ({ page }) => {
  const { teacher, school, students } = await makeSchool(1);
  const { createActivityFromTemplate, createResponse } = await import("../../prisma/seed/factories");
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "reflection-weekly",
    schoolId: school.id,
    mode: "self",
    title: "今週のふりかえり",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id },
    select: { id: true },
  });
  await createResponse(e2eDb(), {
    activityId: activity.id,
    sceneId: scene.id,
    userId: students[0]!.id,
    answer: { value: 4 },
    scenePosition: 0,
  });
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  const card = page.getByTestId("running-list").locator(`[data-activity-id="${activity.id}"]`);
  await expect(card).toBeVisible();
  await expect(page.getByTestId("recent-list")).toContainText("今週のふりかえり");
  await card.getByTestId("mode-select").selectOption("complete");
  await expectNotification(page, "モードを変更しました");
  await expect(page.getByTestId("none-running")).toBeVisible();
  expect((await e2eDb().activity.findUniqueOrThrow({ where: { id: activity.id } })).mode).toBe("complete");
});

test("duplicate: a teacher copies an activity with one button; the copy has the same scenes and none of the answers, and opens in the editor", async ({
  page,
}) => {
  const { teacher, school, students } = await makeSchool(1);
  const source = await e2eDb().activity.create({
    data: { schoolId: school.id, title: "複製のもと", actorType: "student" },
    select: { id: true },
  });
  await e2eDb().activityScene.create({
    data: { activityId: source.id, position: 0, type: "free_text", content: { prompt: "気づいたことは？" } },
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: source.id } });
  await e2eDb().response.create({
    data: {
      activityId: source.id,
      sceneId: scene.id,
      userId: students[0]!.id,
      answer: { text: "とける" },
      scenePosition: 0,
      mode: "self",
      clientRevision: 1,
      idempotencyKey: "dup-e2e-answer-1",
    },
  });
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/activities");
  await row(page, "複製のもと").getByRole("button", { name: "「複製のもと」を複製する" }).click();
  await expectNotification(page, "複製しました");
  const copyRow = row(page, "複製のもと（コピー）");
  await expect(copyRow).toHaveCount(1);
  const copy = await e2eDb().activity.findFirstOrThrow({
    where: { schoolId: school.id, title: "複製のもと（コピー）" },
    select: { id: true, scenes: { select: { type: true, content: true } } },
  });
  expect(copy.scenes).toEqual([{ type: "free_text", content: { prompt: "気づいたことは？" } }]);
  expect(await e2eDb().response.count({ where: { activityId: copy.id } })).toBe(0);
  await copyRow.getByRole("link", { name: "編集" }).click();
  await expect(page.getByTestId("scene-item")).toHaveCount(1);
  await expectAccessible(page);
});
