import { expect, type Page, test } from "@playwright/test";
import { totpCode } from "@/platform/auth/totp";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { expectAccessible, signIn, signInAs } from "./helpers";

/**
 * Teachers' second factor (platform/auth/second-factor.ts), in the browser: enrolling an authenticator app by its
 * QR code's key, then every password sign-in asks for a code before any page opens; a wrong or replayed code is
 * refused; a recovery code works once. With the academy's policy on, a teacher without an app must set one up
 * before anything else; a student is never asked. The codes are computed here like an app computes them.
 */
const PHONE = { width: 390, height: 844 };
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/mfa-${name}.png`, fullPage: true });

async function signOut(page: Page) {
  await page.getByTestId("drawer-trigger").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/signin$/);
}

/** The key shown beside the QR code, as the app would take it; the QR's otpauth URI carries the same. */
async function secretOnPage(page: Page): Promise<string> {
  const secret = (await page.getByTestId("totp-secret").innerText()).replace(/\s/g, "");
  await expect(page.getByTestId("totp-qr")).toHaveAttribute("data-uri", new RegExp(`secret=${secret}`));
  return secret;
}

/** A password sign-in that stops at the second-factor step. */
async function signInToCode(page: Page, email: string) {
  await page.goto("/signin");
  await signIn(page, email, TEST_PASSWORD);
  await expect(page).toHaveURL(/\/auth\/second-factor/, { timeout: 60_000 });
}

async function enterCode(page: Page, code: string) {
  await page.getByTestId("second-factor-code").fill(code);
  await page.getByRole("button", { name: "確認する" }).click();
}

test("a teacher enrols an authenticator app; sign-ins then ask for a code (MFA bypass refused: no page before the right code, a wrong or replayed code refused)", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const { teacher } = await makeSchool(0);
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/signins");
  await page.getByTestId("totp-start").click();
  const secret = await secretOnPage(page);
  await shot(page, "enrol-1280");
  await page.getByTestId("totp-code").fill(totpCode(secret));
  await page.getByTestId("totp-confirm").click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  const recovery = await page.getByTestId("recovery-code").allInnerTexts();
  await expectAccessible(page);
  await page.getByTestId("recovery-done").click();
  await expect(page.getByTestId("second-factor-enabled")).toBeVisible();
  await signOut(page);

  await signInToCode(page, teacher.email!);
  // waiting for the code, no staff page opens (the step again instead)
  await page.goto("/dashboard/teacher/activities");
  await expect(page).toHaveURL(/\/auth\/second-factor\?from=%2Fdashboard%2Fteacher%2Factivities/);
  await expectAccessible(page);
  await shot(page, "code-1280");
  const next = totpCode(secret, Date.now() + 30_000); // the next step's code: the window takes it, enrolment's step is spent
  await enterCode(page, next === "000000" ? "111111" : "000000");
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "wrongCode");
  await enterCode(page, next);
  await expect(page).toHaveURL(/\/dashboard\/teacher\/activities$/, { timeout: 30_000 });
  await signOut(page);

  // the same code again: refused
  await signInToCode(page, teacher.email!);
  await enterCode(page, next);
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "wrongCode");
  // a recovery code works once…
  await enterCode(page, recovery[0]!);
  await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 30_000 });
  await signOut(page);
  await page.setViewportSize(PHONE);
  await signInToCode(page, teacher.email!);
  await shot(page, "code-phone");
  await enterCode(page, recovery[0]!);
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "wrongCode");
  await page.getByTestId("second-factor-signout").click();
  await expect(page).toHaveURL(/\/signin$/);
});

test("a used recovery code is refused the second time (recovery code reuse)", async ({ page }) => {
  test.setTimeout(180_000);
  const { teacher } = await makeSchool(0);
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/signins");
  await page.getByTestId("totp-start").click();
  const secret = await secretOnPage(page);
  await page.getByTestId("totp-code").fill(totpCode(secret));
  await page.getByTestId("totp-confirm").click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  const [code] = await page.getByTestId("recovery-code").allInnerTexts();
  await page.getByTestId("recovery-done").click();
  await signOut(page);
  await signInToCode(page, teacher.email!);
  await enterCode(page, code!);
  await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 30_000 });
  await signOut(page);
  await signInToCode(page, teacher.email!);
  await enterCode(page, code!);
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "wrongCode");
  await page.goto("/dashboard/teacher/home");
  await expect(page).toHaveURL(/\/auth\/second-factor/);
});

test("with the academy's policy on and its grace over, a teacher without an app must enrol first; a student is never asked", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { academy, teacher, students } = await makeSchool(1);
  await e2eDb().academy.update({
    where: { id: academy.id },
    data: { requireSecondFactor: true, secondFactorGraceUntil: new Date(Date.now() - 60_000) },
  });
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInToCode(page, teacher.email!);
  await expect(page.getByTestId("totp-start")).toBeVisible();
  await page.goto("/dashboard/teacher/home");
  await expect(page).toHaveURL(/\/auth\/second-factor/);
  await page.getByTestId("totp-start").click();
  const secret = await secretOnPage(page);
  await shot(page, "forced-enrol-1280");
  await page.getByTestId("totp-code").fill(totpCode(secret));
  await page.getByTestId("totp-confirm").click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  await page.getByTestId("recovery-done").click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/);

  const kid = await browser.newContext();
  const kidPage = await kid.newPage();
  await signInAs(kidPage, students[0]!.email!, TEST_PASSWORD);
  await expect(kidPage).toHaveURL(/\/dashboard\/student\/home$/);
  await kid.close();
});

test("a manager requires a second factor with a grace day on the schools screen; meanwhile a teacher without one is asked on every page, not made to", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const { academy, teacher, manager } = await makeSchool(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  await signInAs(page, manager.email!, TEST_PASSWORD);
  await page.goto("/dashboard/manager/schools");
  await expect(page.getByTestId("mfa-policy-value")).toHaveAttribute("data-require", "false");
  await page.getByTestId("edit-mfa-policy").click();
  await page.getByTestId("mfa-require").selectOption("on");
  await page.getByTestId("mfa-grace").fill("2099-03-31");
  await page.getByTestId("edit-mfa-policy-save").click();
  await expect(page.getByTestId("mfa-policy-value")).toHaveAttribute("data-require", "true");
  await expect(page.getByTestId("mfa-policy-value")).toContainText("2099-03-31");
  await shot(page, "policy-1280");
  expect(
    await e2eDb().academy.findUniqueOrThrow({ where: { id: academy.id }, select: { secondFactorGraceUntil: true } }),
  ).toEqual({ secondFactorGraceUntil: new Date("2099-03-31T15:00:00Z") });

  const other = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const teacherPage = await other.newPage();
  await signInAs(teacherPage, teacher.email!, TEST_PASSWORD);
  await expect(teacherPage.getByTestId("second-factor-reminder")).toBeVisible();
  await teacherPage.getByTestId("second-factor-reminder").getByRole("link").click();
  await expect(teacherPage).toHaveURL(/\/dashboard\/teacher\/signins/);
  // the reminder once on this page too, and the page's heading first
  await expect(teacherPage.getByTestId("second-factor-reminder")).toHaveCount(1);
  await expect(teacherPage.getByText(/2099/)).toHaveCount(1);
  await expect(teacherPage.locator("main h1, main h2").first()).toHaveJSProperty("tagName", "H1");
  await expectAccessible(teacherPage);
  await teacherPage.setViewportSize(PHONE);
  await shot(teacherPage, "settings-phone");
  await other.close();
});
