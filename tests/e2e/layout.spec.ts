import { expect, test } from "@playwright/test";
import { baseText, storageStateOf } from "./helpers";

test.describe("role layouts", () => {
  test("the teacher drawer: menu, school, focus, Escape, outside click, 300 ms exit", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateOf("teacher") });
    const page = await context.newPage();
    await page.clock.install(); // the 300 ms exit is checked on a controlled clock
    await page.goto("/dashboard/teacher/home");
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000); // time moves only when the test says so (from the page's own now)
    const trigger = page.getByTestId("drawer-trigger");
    await trigger.click();
    const drawer = page.getByTestId("drawer");
    await expect(drawer).toBeVisible();
    expect(await baseText(page.getByTestId("drawer-group"))).toBe("デモ第一中学校");
    const links = drawer.locator(".drawer-link");
    await expect(links).toHaveCount(3);
    expect(await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")))).toEqual([
      "/dashboard/teacher/home",
      "/dashboard/teacher/students",
      "/dashboard/teacher/activities",
    ]);
    await expect(page.getByTestId("drawer-close")).toBeFocused();
    // focus is trapped: Shift+Tab from the first element goes to the last
    await page.keyboard.press("Shift+Tab");
    await expect(page.getByTestId("sign-out")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByTestId("drawer-close")).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(drawer).toHaveAttribute("data-phase", "closing");
    await page.clock.runFor(250);
    await expect(drawer).toHaveAttribute("data-phase", "closing");
    await page.clock.runFor(100);
    await expect(drawer).toHaveCount(0);
    await expect(trigger).toBeFocused();

    await trigger.click();
    await expect(drawer).toBeVisible();
    await page.getByTestId("drawer-backdrop").click({ position: { x: 600, y: 300 } });
    await page.clock.runFor(400);
    await expect(drawer).toHaveCount(0);
    await context.close();
  });

  test("the manager drawer has home and schools; the student drawer has no menu items", async ({ browser }) => {
    const manager = await browser.newContext({ storageState: storageStateOf("manager") });
    let page = await manager.newPage();
    await page.goto("/dashboard/manager/home");
    await page.getByTestId("drawer-trigger").click();
    expect(await page.locator(".drawer-link").evaluateAll((els) => els.map((e) => e.getAttribute("href")))).toEqual([
      "/dashboard/manager/home",
      "/dashboard/manager/schools",
    ]);
    expect(await baseText(page.getByTestId("drawer-group"))).toBe("デモ学園");
    await manager.close();

    const student = await browser.newContext({ storageState: storageStateOf("student") });
    page = await student.newPage();
    await page.goto("/dashboard/student/home");
    await page.getByTestId("drawer-trigger").click();
    await expect(page.getByTestId("drawer")).toBeVisible();
    await expect(page.locator(".drawer-link")).toHaveCount(0);
    await expect(page.getByTestId("sign-out")).toBeVisible();
    await student.close();
  });
});
