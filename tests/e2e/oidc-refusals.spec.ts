import { expect, type Page, test } from "@playwright/test";
import { e2eDb, makeSchool } from "./db";
import { baseText, signInThroughProvider } from "./helpers";
import type { Tampering } from "./oidc-tamper";

/** Through the local provider's Google-shaped client (tests/e2e/oidc-provider.ts). */
const googleSignIn = (page: Page, login: string) => signInThroughProvider(page, "google-signin", login);

/** The translated refusal on the sign-in page, no session, and nothing linked to or logged in for `userId`. */
async function expectRefused(page: Page, code: string, text: string, userId: string) {
  await expect(page).toHaveURL(/\/signin\?error=/);
  const shown = page.getByTestId("signin-error");
  await expect(shown).toHaveAttribute("data-code", code);
  expect(await baseText(shown)).toContain(text);
  expect(await e2eDb().account.count({ where: { userId } })).toBe(0);
  expect(await e2eDb().auditLog.count({ where: { actorId: userId, action: { endsWith: ".success" } } })).toBe(0);
  expect(await e2eDb().user.findUnique({ where: { id: userId }, select: { lastSignInAt: true } })).toEqual({
    lastSignInAt: null,
  });
  await page.goto("/dashboard/teacher/home");
  await expect(page).toHaveURL(/\/signin\?from=/);
}

const PROVIDER_FAILED = "外部アカウントでの認証に失敗しました";

test.describe("OpenID Connect refusals (against a local OpenID provider)", () => {
  const spoiled: [Tampering, string][] = [
    ["wrong-audience", "an ID token made for another client (wrong audience)"],
    ["wrong-issuer", "an ID token from another issuer"],
    ["expired", "an expired ID token"],
  ];
  for (const [tampering, what] of spoiled) {
    test(`${what} is refused with a translated message, and nothing is linked or created`, async ({ page }) => {
      const { teacher } = await makeSchool(0);
      const login = `${tampering}:${teacher.email}`;
      await googleSignIn(page, login);
      await expectRefused(page, "providerFailed", PROVIDER_FAILED, teacher.id);
      expect(await e2eDb().account.count({ where: { providerAccountId: login } })).toBe(0);
    });
  }

  test("a replayed Google callback (its code already used, without the browser's state cookies) is refused", async ({
    page,
    browser,
  }) => {
    const { teacher } = await makeSchool(0);
    let callback: string | null = null;
    page.on("request", (r) => {
      if (r.url().includes("/api/auth/callback/google")) callback = r.url();
    });
    await googleSignIn(page, teacher.email!);
    await expect(page).toHaveURL("/dashboard/teacher/home");
    const signins = () => e2eDb().auditLog.count({ where: { actorId: teacher.id, action: "signin.google.success" } });
    const before = await signins();

    // the same callback URL again, in the same browser (state cookies gone with the first use) and in another one
    await page.context().clearCookies();
    await page.goto(callback!);
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "providerFailed");
    const attacker = await browser.newPage();
    await attacker.goto(callback!);
    await expect(attacker.getByTestId("signin-error")).toHaveAttribute("data-code", "providerFailed");
    expect(await baseText(attacker.getByTestId("signin-error"))).toContain(PROVIDER_FAILED);
    await attacker.goto("/dashboard/teacher/home");
    await expect(attacker).toHaveURL(/\/signin\?from=/);
    await attacker.close();
    expect(await signins()).toBe(before);
  });

  test("an unverified e-mail and a disabled account are refused with translated messages, and nothing is linked", async ({
    page,
  }) => {
    const { teacher, manager } = await makeSchool(0);
    await googleSignIn(page, `unverified-${teacher.email}`);
    await expectRefused(page, "userNotFound", "このメールアドレスの利用者は見つかりません", teacher.id);

    await e2eDb().user.update({ where: { id: manager.id }, data: { disabled: true } });
    await page.context().clearCookies();
    await googleSignIn(page, manager.email!);
    await expectRefused(page, "userDisabled", "このアカウントは利用できません", manager.id);
  });
});
