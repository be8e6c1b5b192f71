import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { sealSecret } from "../../platform/auth/secret-box";
import { KEYCLOAK_CLIENT, KEYCLOAK_ISSUER } from "./config";
import { e2eDb, makeSchool, signinCodeKey, TEST_PASSWORD } from "./db";
import { baseText, expectAccessible, signInAs, signInThroughProvider } from "./helpers";
import { keycloakLogin } from "./oidc-provider";

type Role = "student" | "teacher" | "manager";

/** The academy's own provider, the local Keycloak-shaped one, as an operator sets it (`set-oidc-provider`). */
async function configure(academyId: string, identityClaim: string, allowedRoles: Role[]) {
  const slug = `kc-${randomUUID().slice(0, 8)}`;
  await e2eDb().academyOidcProvider.create({
    data: {
      academyId,
      slug,
      displayName: "テスト教育委員会ID",
      issuer: KEYCLOAK_ISSUER,
      clientId: KEYCLOAK_CLIENT.id,
      clientSecretSealed: sealSecret(KEYCLOAK_CLIENT.secret, signinCodeKey(), "oidc-client-secret"),
      identityClaim,
      allowedRoles,
    },
  });
  return slug;
}

/** Through the printed link /signin?academy=<slug> and the local provider's sign-in and consent pages. */
const academySignIn = (page: Page, slug: string, login: string) =>
  signInThroughProvider(page, "academy-signin", login, `/signin?academy=${slug}`);

/** The translated refusal with the academy's button still there to try again, no session, and nothing linked to `userId`. */
async function expectRefused(page: Page, code: string, text: string, userId: string, slug: string) {
  await expect(page).toHaveURL(new RegExp(`/signin\\?error=${code}&academy=${slug}$`));
  await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", code);
  expect(await baseText(page.getByTestId("signin-error"))).toContain(text);
  await expect(page.getByTestId("academy-signin")).toContainText("テスト教育委員会IDでサインイン");
  expect(await e2eDb().account.count({ where: { userId } })).toBe(0);
  await page.goto("/dashboard/student/home");
  await expect(page).toHaveURL(/\/signin\?from=/);
}

test.describe("an academy's own OpenID Connect provider (against a local Keycloak-shaped provider)", () => {
  test("the manager sets the academy's provider on the schools screen, the secret never reaches the browser, and a teacher signs in by verified e-mail through the printed link", async ({
    page,
    browser,
  }) => {
    const { manager, school, teacher } = await makeSchool(0);
    await signInAs(page, manager.email!, TEST_PASSWORD);
    await page.goto("/dashboard/manager/schools");
    await expect(page.getByTestId("oidc-provider-value")).toHaveAttribute("data-slug", "");
    await page.getByTestId("edit-oidc-provider").click();
    const dialog = page.getByTestId("edit-oidc-provider-dialog");
    const slug = `board-${randomUUID().slice(0, 8)}`;
    await dialog.locator('input[name="displayName"]').fill("テスト教育委員会ID");
    await dialog.locator('input[name="slug"]').fill(slug);
    await dialog.locator('input[name="issuer"]').fill("http://issuer.example"); // not HTTPS: refused
    await dialog.locator('input[name="clientId"]').fill(KEYCLOAK_CLIENT.id);
    await dialog.locator('input[name="clientSecret"]').fill(KEYCLOAK_CLIENT.secret);
    await dialog.locator('input[name="role-teacher"]').check();
    await page.getByTestId("edit-oidc-provider-save").click();
    await expect(page.getByTestId("edit-oidc-provider-error")).toBeVisible();
    await dialog.locator('input[name="issuer"]').fill(KEYCLOAK_ISSUER);
    await page.getByTestId("edit-oidc-provider-save").click();
    await expect(page.getByTestId("oidc-provider-value")).toHaveAttribute("data-slug", slug);
    await expect(page.getByTestId("oidc-signin-link")).toContainText(`/signin?academy=${slug}`);
    await page.getByTestId("edit-oidc-provider").click();
    expect(await page.content()).not.toContain(KEYCLOAK_CLIENT.secret);
    await expect(dialog.locator('input[name="clientSecret"]')).toHaveValue("");
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/academy-oidc-1280.png" });
    await page.keyboard.press("Escape");
    const stored = await e2eDb().academyOidcProvider.findUnique({ where: { slug } });
    expect(stored?.clientSecretSealed).not.toContain(KEYCLOAK_CLIENT.secret);
    const logged = await e2eDb().auditLog.findFirst({
      where: { action: "academy.oidcProvider", academyId: stored!.academyId },
    });
    expect(JSON.stringify(logged?.meta)).not.toContain(KEYCLOAK_CLIENT.secret);

    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(`/signin?academy=${slug}`);
    await expect(other.getByTestId("academy-signin")).toContainText("テスト教育委員会IDでサインイン");
    await expectAccessible(other);
    await other.screenshot({ path: "test-results/academy-oidc-signin-1280.png" });
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`/signin?academy=${slug}`);
    await phone.screenshot({ path: "test-results/academy-oidc-signin-phone.png" });
    await phone.close();
    await academySignIn(other, slug, keycloakLogin(teacher.email!));
    await expect(other).toHaveURL("/dashboard/teacher/home");
    await fresh.close();
    await page.goto(`/dashboard/manager/schools/${school.id}`);
    const methods = page.locator(`tr[data-person-id="${teacher.id}"] [data-testid="signin-methods"]`);
    await expect(methods).toHaveAttribute("data-methods", "password oidc");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/dashboard/manager/schools");
    await page.screenshot({ path: "test-results/academy-oidc-phone.png", fullPage: true });
  });

  test("students sign in by `sub` and by a roster id claim, each matched to the roster's userMasterIdentifier", async ({
    page,
  }) => {
    const bySub = await makeSchool(1);
    const subSlug = await configure(bySub.academy.id, "sub", ["student"]);
    const login = keycloakLogin(`nobody-${randomUUID()}@board.example`);
    await e2eDb().user.update({ where: { id: bySub.students[0]!.id }, data: { userMasterIdentifier: login } });
    await academySignIn(page, subSlug, login);
    await expect(page).toHaveURL("/dashboard/student/home");
    expect(await e2eDb().account.count({ where: { userId: bySub.students[0]!.id, provider: `oidc-${subSlug}` } })).toBe(
      1,
    );

    const byClaim = await makeSchool(1);
    const claimSlug = await configure(byClaim.academy.id, "roster_id", ["student"]);
    const rosterId = randomUUID();
    await e2eDb().user.update({ where: { id: byClaim.students[0]!.id }, data: { userMasterIdentifier: rosterId } });
    await page.context().clearCookies();
    await academySignIn(page, claimSlug, keycloakLogin(`someone-${randomUUID()}@board.example`, rosterId));
    await expect(page).toHaveURL("/dashboard/student/home");
    const logged = await e2eDb().auditLog.findFirst({
      where: { actorId: byClaim.students[0]!.id, action: "signin.oidc.success" },
    });
    expect(logged).not.toBeNull();
  });

  test("a role the academy does not allow, and a person of another academy, are refused with translated messages and nothing is linked", async ({
    page,
  }) => {
    const { academy, teacher, students } = await makeSchool(1);
    const slug = await configure(academy.id, "email", ["student"]);
    await academySignIn(page, slug, keycloakLogin(teacher.email!));
    await expectRefused(page, "roleNotAllowed", "決めた立場の人だけです", teacher.id, slug);
    const refused = await e2eDb().auditLog.findFirst({ where: { actorId: teacher.id, action: "signin.oidc.failure" } });
    expect(refused?.meta).toMatchObject({ reason: "roleNotAllowed" });

    // another academy's student, with a verified e-mail, through this academy's provider
    const other = await makeSchool(1);
    await page.context().clearCookies();
    await academySignIn(page, slug, keycloakLogin(other.students[0]!.email!));
    await expectRefused(page, "wrongAcademy", "この学園にはサインインできません", other.students[0]!.id, slug);

    // an unverified e-mail names nobody
    await page.context().clearCookies();
    await academySignIn(page, slug, keycloakLogin(`unverified-${students[0]!.email}`));
    await expectRefused(page, "userNotFound", "このメールアドレスの利用者は見つかりません", students[0]!.id, slug);
  });

  test("under the academy's second-factor policy, a teacher whose ID token says `amr` mfa goes straight in; without it they are sent to the second factor", async ({
    page,
  }) => {
    const { academy, teacher } = await makeSchool(0);
    const slug = await configure(academy.id, "email", ["teacher"]);
    await e2eDb().academy.update({
      where: { id: academy.id },
      data: { requireSecondFactor: true, secondFactorGraceUntil: new Date(Date.now() - 60_000) },
    });
    await academySignIn(page, slug, keycloakLogin(teacher.email!, "", ["pwd", "mfa"]));
    await expect(page).toHaveURL("/dashboard/teacher/home");
    const device = await e2eDb().deviceSession.findFirst({
      where: { userId: teacher.id, method: "oidc" },
      orderBy: { createdAt: "desc" },
    });
    expect(device?.secondFactorPending).toBe(false);

    await page.context().clearCookies();
    await academySignIn(page, slug, keycloakLogin(teacher.email!, "", ["pwd"]));
    await expect(page).toHaveURL(/\/auth\/second-factor/);
    await expect(page.getByTestId("totp-start")).toBeVisible();
    await page.goto("/dashboard/teacher/home");
    await expect(page).toHaveURL(/\/auth\/second-factor/);
  });
});
