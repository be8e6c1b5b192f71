import { expect, type Page, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { makeSchool, TEST_PASSWORD } from "./db";
import { baseText, signInAs, storageStateOf } from "./helpers";
import { ROUTES } from "./routes";

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
    await expect(links).toHaveCount(5);
    expect(await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")))).toEqual([
      "/dashboard/teacher/home",
      "/dashboard/teacher/students",
      "/dashboard/teacher/activities",
      "/dashboard/teacher/library",
      "/dashboard/teacher/signins",
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

  test("the manager drawer has home, schools, the library, the roster and the sign-in log; the student drawer has no menu items", async ({
    browser,
  }) => {
    const manager = await browser.newContext({ storageState: storageStateOf("manager") });
    let page = await manager.newPage();
    await page.goto("/dashboard/manager/home");
    await page.getByTestId("drawer-trigger").click();
    expect(await page.locator(".drawer-link").evaluateAll((els) => els.map((e) => e.getAttribute("href")))).toEqual([
      "/dashboard/manager/home",
      "/dashboard/manager/schools",
      "/dashboard/manager/library",
      "/dashboard/manager/roster",
      "/dashboard/manager/signin-log",
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

const LANGS = ["ja", "ja-ruby", "ja-kana"] as const;
const setLanguage = (page: Page, lang: string) =>
  page.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);

/** The top bar's items as boxes (hidden ones left out), and the page's horizontal overflow. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector("header.top-bar");
    const items = bar
      ? [...bar.children]
          .map((el) => ({ el: el.className || el.tagName, box: el.getBoundingClientRect() }))
          .filter((i) => i.box.width > 0 && i.box.height > 0)
          .map((i) => ({ el: i.el, mid: Math.round(i.box.top + i.box.height / 2), height: Math.round(i.box.height) }))
      : [];
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      barHeight: bar ? Math.round(bar.getBoundingClientRect().height) : 0,
      items,
    };
  });

test.describe("phone layout at 360 px: no horizontal scroll, a one-line top bar", () => {
  test.use({ viewport: { width: 360, height: 740 } });
  for (const area of ["public", "student", "teacher", "manager"] as const) {
    test.describe(area, () => {
      if (area !== "public") test.use({ storageState: storageStateOf(area) });
      for (const route of ROUTES.filter((r) => r.area === area && r.pattern !== "/dashboard")) {
        test(route.path, async ({ page }) => {
          for (const lang of LANGS) {
            await setLanguage(page, lang);
            const res = await page.goto(route.path);
            expect(res?.status(), `${lang} ${route.path}`).toBe(200);
            await page.waitForLoadState("load");
            const m = await measure(page);
            expect.soft(m.overflow, `${lang}: page wider than the screen`).toBeLessThanOrEqual(0);
            if (area === "public") continue;
            // one line: every item is at most one 44 px target high (a wrapped name or label is two text lines),
            // all centred on the same line, and the bar itself one target plus its padding
            expect
              .soft(
                m.items.filter((i) => i.height > 48),
                `${lang}: items taller than one line`,
              )
              .toEqual([]);
            const mids = m.items.map((i) => i.mid);
            expect
              .soft(Math.max(...mids) - Math.min(...mids), `${lang}: items not on one line ${JSON.stringify(m.items)}`)
              .toBeLessThanOrEqual(2);
            expect.soft(m.barHeight, `${lang}: top bar height`).toBeLessThanOrEqual(56);
          }
        });
      }
    });
  }
});

test.describe("row menus are not clipped by the table's scroll box", () => {
  for (const viewport of [
    { width: 360, height: 740 },
    { width: 1366, height: 768 },
  ]) {
    test(`the last row's menu of the students table at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const { teacher, students } = await makeSchool(12);
      await signInAs(page, teacher.email!, TEST_PASSWORD);
      await page.goto("/dashboard/teacher/students");
      const last = page.locator(`tr[data-email="${students.at(-1)!.email}"]`);
      await last.scrollIntoViewIfNeeded();
      await last.getByTestId("row-menu").click();
      const item = last.getByTestId("delete-student");
      await expect(item).toBeVisible();
      const menu = item.locator("xpath=.."); // the box that holds the entries
      const seen = await menu.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const inside = r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
        const corners = [
          [r.left + 3, r.top + 3],
          [r.right - 3, r.top + 3],
          [r.left + 3, r.bottom - 3],
          [r.right - 3, r.bottom - 3],
        ].map(([x, y]) => el.contains(document.elementFromPoint(x!, y!)));
        return { inside, corners };
      });
      expect(seen).toEqual({ inside: true, corners: [true, true, true, true] });
      // every entry of the menu can be pressed where it is
      for (const id of ["reset-password", "toggle-disabled", "new-code", "revoke-code", "delete-student"]) {
        await expect(last.getByTestId(id)).toBeInViewport({ ratio: 1 });
      }
      await page.keyboard.press("Escape");
      await expect(item).toBeHidden();
    });
  }
});
