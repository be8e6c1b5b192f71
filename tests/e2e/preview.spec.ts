import { expect, test } from "@playwright/test";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { baseText, expectAccessible, signInAs, storageStateOf } from "./helpers";
import { e2eDb } from "./db";

test.describe("activity preview", () => {
  test.use({ storageState: storageStateOf("teacher") });

  test("walks every scene type as a student sees it, with 'required input', and writes no response", async ({
    page,
  }) => {
    // this activity's responses only: tests running alongside write responses of their own
    const before = await e2eDb().response.count({ where: { activityId: DEMO_IDS.mathActivity } });
    await page.goto(`/dashboard/teacher/activities/preview/${DEMO_IDS.mathActivity}`);
    await expect(page.getByTestId("preview-badge")).toBeVisible();
    const scene = page.getByTestId("scene");
    const progress = page.getByTestId("progress");

    // 1 info, with inline math typeset by KaTeX
    await expect(scene).toHaveAttribute("data-scene-type", "info");
    await expect(scene.locator(".katex").first()).toBeVisible();
    await expectAccessible(page);
    await page.getByTestId("next").click();

    // 2 single choice with math options
    await expect(scene).toHaveAttribute("data-scene-type", "single_choice");
    await expect(progress).toHaveText("2 / 5");
    await scene.locator('[data-option="a"]').click();
    await expect(scene.locator('[data-option="a"] input')).toBeChecked();
    await page.getByTestId("next").click();

    // 3 multiple choice
    await expect(scene).toHaveAttribute("data-scene-type", "multiple_choice");
    await scene.locator('[data-option="p"]').click();
    await scene.locator('[data-option="q"]').click();
    await expect(scene.locator('input[type="checkbox"]:checked')).toHaveCount(2);
    await page.getByTestId("previous").click();
    await expect(scene.locator('[data-option="a"] input')).toBeChecked(); // answers kept while walking
    await page.getByTestId("next").click();
    await page.getByTestId("next").click();

    // 4 two-step: first, second, then a required reason
    await expect(scene).toHaveAttribute("data-scene-type", "two_step");
    await page.getByTestId("next").click();
    await expect(page.getByTestId("scene-problem")).toBeVisible();
    expect(await baseText(page.getByTestId("scene-problem"))).toBe("入力してください。");
    await scene.locator('[data-option="wrong"]').click();
    await scene.getByTestId("second-step").locator('[data-option="line1"]').click();
    await scene.getByTestId("reason").locator("textarea").fill("   ");
    await page.getByTestId("next").click();
    await expect(page.getByTestId("scene-problem")).toBeVisible();
    await scene.getByTestId("reason").locator("textarea").fill("移項で符号を変えていないから");
    await page.getByTestId("next").click();

    // 5 scale
    await expect(scene).toHaveAttribute("data-scene-type", "scale");
    await scene.locator(".scale-point").nth(3).click();
    await page.getByTestId("next").click();
    await expect(page.getByTestId("preview-done")).toBeVisible();
    expect(await e2eDb().response.count({ where: { activityId: DEMO_IDS.mathActivity } })).toBe(before);
  });

  test("free text with its length counter; second-step options depend on the first choice", async ({ page }) => {
    await page.goto(`/dashboard/teacher/activities/preview/${DEMO_IDS.scienceActivity}`);
    const scene = page.getByTestId("scene");
    await page.getByTestId("next").click();
    await scene.locator('[data-option="same"]').click();
    await page.getByTestId("next").click(); // blocked: second choice and reason missing
    await expect(page.getByTestId("scene-problem")).toBeVisible();
    await scene.getByTestId("second-step").locator('[data-option="sure"]').click();
    await scene.getByTestId("reason").locator("textarea").fill("なくならないから");
    await page.getByTestId("next").click();
    await scene.locator('[data-option="clear"]').click();
    await page.getByTestId("next").click();
    await scene.locator('[data-option="out"]').click();
    await expect(scene.getByTestId("second-step").locator("[data-option]")).toHaveText([/酸素/, /二酸化炭素/]);
    await scene.locator('[data-option="burn"]').click();
    await expect(scene.getByTestId("second-step").locator("[data-option]")).toHaveText([/空気/, /残/]);
    await scene.getByTestId("second-step").locator('[data-option="air"]').click();
    await scene.getByTestId("reason").locator("textarea").fill("空気があるから");
    await page.getByTestId("next").click();
    await expect(scene).toHaveAttribute("data-scene-type", "free_text");
    await scene.locator("textarea").fill("みんなの考え");
    await expect(scene.getByText("6/400")).toBeVisible();
  });
});

test("a manager previews an activity of the academy's school; another academy's manager gets no access", async ({
  page,
  browser,
}) => {
  await signInAs(page, "manager@example.com");
  await page.goto(`/dashboard/manager/activities/preview/${DEMO_IDS.school1}/${DEMO_IDS.mathActivity}`);
  await expect(page.getByTestId("scene")).toBeVisible();
  const other = await browser.newContext();
  const p2 = await other.newPage();
  await signInAs(p2, "manager2@example.com");
  await p2.goto(`/dashboard/manager/activities/preview/${DEMO_IDS.school1}/${DEMO_IDS.mathActivity}`);
  await expect(p2.getByTestId("error-page")).toBeVisible();
  await expect(p2.locator("body")).not.toContainText("方程式");
  await other.close();
});
