import { expect, type Page, test } from "@playwright/test";
import { e2eDb, makeSchool } from "./db";
import { signInThroughProvider } from "./helpers";

const googleSignIn = (page: Page, login: string) => signInThroughProvider(page, "google-signin", login);

test.describe("Google sign-in (against a local OpenID provider)", () => {
  test("a verified e-mail that matches a user signs in, links the account and is in the sign-in log", async ({
    page,
  }) => {
    const { teacher } = await makeSchool(0);
    await googleSignIn(page, teacher.email!);
    await expect(page).toHaveURL("/dashboard/teacher/home");
    const linked = await e2eDb().account.findFirst({ where: { userId: teacher.id, provider: "google" } });
    expect(linked?.providerAccountId).toBe(teacher.email);
    // the sign-in log has the method, the client address and the browser's user agent (docs/security.md)
    const logged = await e2eDb().auditLog.findFirst({
      where: { actorId: teacher.id, action: "signin.google.success" },
      select: { ip: true, userAgent: true },
    });
    expect(logged?.ip).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(logged?.userAgent).toBe(await page.evaluate(() => navigator.userAgent));
  });

  test("an e-mail with no user, or not verified, gets 'user not found' and no session", async ({ page }) => {
    await googleSignIn(page, `stranger-${Date.now()}@test.example`);
    await expect(page).toHaveURL(/\/signin\?error=userNotFound/);
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "userNotFound");
    await page.goto("/dashboard/student/home");
    await expect(page).toHaveURL(/\/signin\?from=/);

    const { teacher } = await makeSchool(0);
    await page.context().clearCookies();
    await googleSignIn(page, `unverified-${teacher.email}`);
    await expect(page).toHaveURL(/\/signin\?error=userNotFound/);
  });
});
