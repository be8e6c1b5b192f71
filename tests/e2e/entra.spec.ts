import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { baseText, expectAccessible, signInAs, signInThroughProvider } from "./helpers";
import { entraLogin } from "./oidc-provider";

/** Through the local OpenID provider's sign-in and consent pages, with its Entra-shaped client. */
const entraSignIn = (page: Page, login: string) => signInThroughProvider(page, "entra-signin", login);

/** A school whose academy is bound to a new tenant. */
async function boundSchool() {
  const made = await makeSchool(1);
  const tenant = randomUUID();
  await e2eDb().academy.update({ where: { id: made.academy.id }, data: { entraTenantId: tenant } });
  return { ...made, tenant };
}

/** The refusal as the person sees it, with no session and nothing linked to `userId`. */
async function expectRefused(page: Page, code: string, userId: string) {
  await expect(page).toHaveURL(new RegExp(`/signin\\?error=${code}`));
  await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", code);
  expect(await e2eDb().account.count({ where: { userId } })).toBe(0);
  await page.goto("/dashboard/teacher/home");
  await expect(page).toHaveURL(/\/signin\?from=/);
}

test.describe("Microsoft Entra ID sign-in (against a local OpenID provider)", () => {
  // the local Entra stand-in serves HTTPS with a self-signed certificate (tests/e2e/oidc-tls.ts)
  test.use({ ignoreHTTPSErrors: true });
  test("an account of the academy's tenant with a verified e-mail signs in, is linked and is in the sign-in log", async ({
    page,
  }) => {
    const { teacher, tenant } = await boundSchool();
    await entraSignIn(page, entraLogin(tenant, teacher.email!));
    await expect(page).toHaveURL("/dashboard/teacher/home");
    const linked = await e2eDb().account.findFirst({ where: { userId: teacher.id, provider: "microsoft-entra-id" } });
    expect(linked?.providerAccountId).toBe(entraLogin(tenant, teacher.email!));
    const logged = await e2eDb().auditLog.findFirst({
      where: { actorId: teacher.id, action: "signin.entra.success" },
      select: { ip: true, userAgent: true },
    });
    expect(logged?.ip).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  test("a replayed callback (its code already used, without the browser's state cookies) is refused with a translated message and no session", async ({
    page,
    browser,
  }) => {
    const { teacher, tenant } = await boundSchool();
    let callback: string | null = null;
    page.on("request", (r) => {
      if (r.url().includes("/api/auth/callback/microsoft-entra-id")) callback = r.url();
    });
    await entraSignIn(page, entraLogin(tenant, teacher.email!));
    await expect(page).toHaveURL("/dashboard/teacher/home");
    expect(callback).toContain("code=");
    const before = await e2eDb().auditLog.count({ where: { actorId: teacher.id, action: "signin.entra.success" } });

    const attacker = await browser.newPage({ ignoreHTTPSErrors: true });
    await attacker.goto(callback!);
    await expect(attacker).toHaveURL(/\/signin\?error=/);
    await expect(attacker.getByTestId("signin-error")).toHaveAttribute("data-code", "providerFailed");
    expect(await baseText(attacker.getByTestId("signin-error"))).toContain("外部アカウントでの認証に失敗しました");
    await attacker.goto("/dashboard/teacher/home");
    await expect(attacker).toHaveURL(/\/signin\?from=/);
    await attacker.close();
    expect(await e2eDb().auditLog.count({ where: { actorId: teacher.id, action: "signin.entra.success" } })).toBe(
      before,
    );
  });

  test("a student without an e-mail signs in by the roster's userMasterIdentifier (the token's oid)", async ({
    page,
  }) => {
    const { students, tenant } = await boundSchool();
    const oid = randomUUID();
    await e2eDb().user.update({ where: { id: students[0]!.id }, data: { email: null, userMasterIdentifier: oid } });
    await entraSignIn(page, entraLogin(tenant, `nobody-${oid}@school.example`, oid));
    await expect(page).toHaveURL("/dashboard/student/home");
  });

  test("tenant confusion: another tenant's account with the same e-mail is refused, logged, and nothing is linked", async ({
    page,
  }) => {
    const { teacher } = await boundSchool();
    await entraSignIn(page, entraLogin(randomUUID(), teacher.email!));
    await expectRefused(page, "wrongTenant", teacher.id);
    const logged = await e2eDb().auditLog.findFirst({
      where: { actorId: teacher.id, action: "signin.entra.failure" },
      select: { meta: true },
    });
    expect(logged?.meta).toMatchObject({ reason: "wrongTenant" });

    // an academy bound to no tenant: nobody of it signs in with Microsoft
    const unbound = await makeSchool(0);
    await page.context().clearCookies();
    await entraSignIn(page, entraLogin(randomUUID(), unbound.teacher.email!));
    await expectRefused(page, "wrongTenant", unbound.teacher.id);
  });

  test("an unverified e-mail, an unknown person and a disabled account are refused and nothing is created", async ({
    page,
  }) => {
    const { teacher, students, tenant } = await boundSchool();
    await entraSignIn(page, entraLogin(tenant, `unverified-${teacher.email}`));
    await expectRefused(page, "userNotFound", teacher.id);

    await page.context().clearCookies();
    const stranger = `stranger-${randomUUID()}@test.example`;
    await entraSignIn(page, entraLogin(tenant, stranger));
    await expect(page).toHaveURL(/\/signin\?error=userNotFound/);
    expect(await e2eDb().user.count({ where: { email: stranger } })).toBe(0);

    await e2eDb().user.update({ where: { id: students[0]!.id }, data: { disabled: true } });
    await page.context().clearCookies();
    await entraSignIn(page, entraLogin(tenant, students[0]!.email!));
    await expectRefused(page, "userDisabled", students[0]!.id);
  });

  test("the manager binds the academy to its tenant on the schools screen and sees each person's sign-in methods", async ({
    page,
    browser,
  }) => {
    const { manager, school, teacher, students } = await makeSchool(1);
    await page.goto("/signin");
    await page.screenshot({ path: "test-results/entra-signin-1280.png" });
    await signInAs(page, manager.email!, TEST_PASSWORD);
    await page.goto("/dashboard/manager/schools");
    await expect(page.getByTestId("entra-tenant-value")).toHaveAttribute("data-tenant", "");
    await page.getByTestId("edit-entra-tenant").click();
    const field = page.getByTestId("edit-entra-tenant-dialog").locator('input[name="tenantId"]');
    await field.fill("contoso.onmicrosoft.com");
    await page.getByTestId("edit-entra-tenant-save").click();
    await expect(page.getByTestId("edit-entra-tenant-error")).toBeVisible();
    const tenant = randomUUID();
    await field.fill(tenant.toUpperCase());
    await page.getByTestId("edit-entra-tenant-save").click();
    await expect(page.getByTestId("entra-tenant-value")).toHaveAttribute("data-tenant", tenant);
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/entra-tenant-1280.png" });

    // the teacher now signs in with their school Microsoft account
    const other = await browser.newPage({ ignoreHTTPSErrors: true });
    await entraSignIn(other, entraLogin(tenant, teacher.email!));
    await expect(other).toHaveURL("/dashboard/teacher/home");
    await other.close();

    await page.goto(`/dashboard/manager/schools/${school.id}`);
    const methods = (id: string) => page.locator(`tr[data-person-id="${id}"] [data-testid="signin-methods"]`);
    await expect(methods(teacher.id)).toHaveAttribute("data-methods", "password entra");
    await expect(methods(teacher.id)).toContainText("Microsoft");
    await expect(methods(students[0]!.id)).toHaveAttribute("data-methods", "password code");
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/entra-methods-1280.png", fullPage: true });
    // the sign-in log filtered by the Microsoft method: the teacher's sign-in, nothing else
    await page.goto("/dashboard/manager/signin-log?method=entra");
    const rows = page.getByTestId("signin-log-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute("data-method", "entra");
    await expect(rows.first()).toContainText("Microsoft");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/dashboard/manager/schools");
    await page.screenshot({ path: "test-results/entra-tenant-phone.png", fullPage: true });
  });
});
