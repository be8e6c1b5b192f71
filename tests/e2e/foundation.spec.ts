import { expect, test } from "@playwright/test";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { baseText, expectAccessible, signIn } from "./helpers";

test.describe("sign-in and homes (Foundation)", () => {
  test("the sign-in page is served at / and /signin", async ({ page }) => {
    for (const path of ["/", "/signin"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1, name: "サインイン" })).toBeVisible();
      await expect(page.getByLabel("メールアドレス")).toBeVisible();
    }
    await expectAccessible(page);
  });

  // fresh accounts shown like the demo ones: signing out ends every session of the user, and
  // the demo accounts' sessions are shared by other tests (storage states)
  const roles = [
    ["student", { nickname: "はるくん" }, "はるくん"],
    ["teacher", { nickname: "佐藤" }, "佐藤先生"],
    ["manager", { name: "山田 恵子", nickname: null }, "山田 恵子（管理者）"],
  ] as const;

  for (const [role, look, name] of roles) {
    test(`a ${role} signs in, sees their home and name, and signs out`, async ({ page }) => {
      const school = await makeSchool(1);
      const user = { student: school.students[0]!, teacher: school.teacher, manager: school.manager }[role];
      await e2eDb().user.update({ where: { id: user.id }, data: look });
      await page.goto("/signin");
      await signIn(page, user.email!, TEST_PASSWORD);
      await expect(page).toHaveURL(`/dashboard/${role}/home`);
      await expect(page.getByTestId("display-name")).toBeVisible();
      expect(await baseText(page.getByTestId("display-name"))).toBe(name);
      await expectAccessible(page);
      await page.getByTestId("drawer-trigger").click();
      await page.getByTestId("sign-out").click();
      await expect(page).toHaveURL(/\/signin$/);
      await page.goto(`/dashboard/${role}/home`);
      await expect(page).toHaveURL(/\/signin\?from=/);
    });
  }

  test("a wrong password and a malformed e-mail get their messages", async ({ page }) => {
    await page.goto("/signin");
    await signIn(page, "teacher@example.com", "not-the-password");
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "wrongPassword");
    expect(await baseText(page.getByTestId("signin-error"))).toContain("パスワードが違います");
    await signIn(page, "teacher-at-example");
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "invalidEmail");
    await expect(page).toHaveURL(/\/signin$/);
  });

  test("signed out, a protected page sends to /signin with from, and sign-in returns there", async ({ page }) => {
    await page.goto("/dashboard/teacher/home?tab=1");
    await expect(page).toHaveURL("/signin?from=%2Fdashboard%2Fteacher%2Fhome%3Ftab%3D1");
    await signIn(page, "teacher@example.com");
    await expect(page).toHaveURL("/dashboard/teacher/home?tab=1");
  });

  test("an unknown path shows the error page with a 404", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("error-page")).toBeVisible();
  });
});
