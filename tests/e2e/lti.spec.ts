import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { type LtiPlatformEmulator, startLtiPlatform } from "../support/lti-platform";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { baseText, expectAccessible, signInAs } from "./helpers";

/**
 * A 学習eポータル launching us over LTI 1.3 (features/lti), in Chromium: the platform emulator
 * (tests/support/lti-platform.ts) on 127.0.0.1 — another site than the app on localhost, so the login initiation and
 * the id_token arrive as cross-site form posts, as from a real portal — auto-posts the login initiation and, when our
 * login step sends the browser to it, the signed id_token to our launch URL.
 */
// one portal per test: an issuer and client id name one academy
let platform: LtiPlatformEmulator;
test.beforeEach(async () => {
  platform = await startLtiPlatform({ toolUrl: BASE_URL });
});
test.afterEach(async () => {
  await platform.close();
});

const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

/** The academy's platform, as `set-lti-platform` stores it. */
async function register(academyId: string) {
  await e2eDb().ltiPlatform.create({
    data: {
      ...{ academyId, issuer: platform.issuer, clientId: platform.clientId, deploymentIds: [platform.deploymentId] },
      ...{ authLoginUrl: platform.authUrl, tokenUrl: platform.tokenUrl, jwksUrl: platform.jwksUrl },
    },
  });
}

/** Gives the user a OneRoster sourcedId (as an import does): what the portal's `sub` names. */
async function rosterId(userId: string) {
  const sourcedId = randomUUID();
  await e2eDb().user.update({ where: { id: userId }, data: { sourcedId } });
  return sourcedId;
}

/** Starts a launch at the portal: its login initiation, our redirect to its auth URL, its id_token post. */
async function launchFromPortal(page: Page, sub: string, activityId: string, roles = [LEARNER]) {
  const hint = platform.prepare({
    sub,
    deploymentId: platform.deploymentId,
    targetLinkUri: `${BASE_URL}/lti/activities/${activityId}`,
    roles,
  });
  await page.goto(platform.startUrl(hint));
}

async function expectRefused(page: Page, code: string, text: string) {
  await expect(page).toHaveURL(new RegExp(`/lti/refused\\?reason=${code}$`));
  await expect(page.getByTestId("lti-refused")).toHaveAttribute("data-code", code);
  expect(await baseText(page.getByTestId("lti-refused"))).toContain(text);
  await page.goto("/dashboard/student/home");
  await expect(page).toHaveURL(/\/signin\?from=/);
}

test.describe("launches from a 学習eポータル (LTI 1.3, against a platform emulator)", () => {
  test("the manager registers the portal on the schools screen and sees the URLs to copy; a student is launched into a self-mode activity", async ({
    page,
    browser,
  }) => {
    const { manager, school, students } = await makeSchool(1);
    await signInAs(page, manager.email!, TEST_PASSWORD);
    await page.goto("/dashboard/manager/schools");
    await expect(page.getByTestId("lti-platform-value")).toHaveAttribute("data-issuer", "");
    await expect(page.getByTestId("lti-login-url")).toContainText(`${BASE_URL}/api/lti/login`);
    await expect(page.getByTestId("lti-launch-url")).toContainText(`${BASE_URL}/api/lti/launch`);
    await expect(page.getByTestId("lti-jwks-url")).toContainText(`${BASE_URL}/api/lti/jwks`);
    await page.getByTestId("edit-lti-platform").click();
    const dialog = page.getByTestId("edit-lti-platform-dialog");
    await dialog.locator('input[name="issuer"]').fill(platform.issuer);
    await dialog.locator('input[name="clientId"]').fill(platform.clientId);
    await dialog.locator('input[name="deploymentIds"]').fill(`${platform.deploymentId}, dep-other`);
    await dialog.locator('input[name="authLoginUrl"]').fill("http://portal.example/auth"); // not HTTPS: refused
    await dialog.locator('input[name="tokenUrl"]').fill(platform.tokenUrl);
    await dialog.locator('input[name="jwksUrl"]').fill(platform.jwksUrl);
    await page.getByTestId("edit-lti-platform-save").click();
    await expect(page.getByTestId("edit-lti-platform-error")).toBeVisible();
    await dialog.locator('input[name="authLoginUrl"]').fill(platform.authUrl);
    await page.getByTestId("edit-lti-platform-save").click();
    await expect(page.getByTestId("lti-platform-value")).toHaveAttribute("data-issuer", platform.issuer);
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/lti-platform-1280.png" });
    expect(
      await e2eDb().ltiPlatform.findFirst({
        where: { academy: { schools: { some: { id: school.id } } } },
        select: { deploymentIds: true, identityClaim: true },
      }),
    ).toEqual({ deploymentIds: [platform.deploymentId, "dep-other"], identityClaim: "sub" });

    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const sub = await rosterId(students[0]!.id);
    const fresh = await browser.newContext();
    const tablet = await fresh.newPage();
    await launchFromPortal(tablet, sub, activity.id);
    await expect(tablet).toHaveURL(`/dashboard/student/activities/solo/${activity.id}`);
    await expect(tablet.getByTestId("progress")).toContainText("1 / 5");
    expect(await e2eDb().auditLog.count({ where: { actorId: students[0]!.id, action: "signin.lti.success" } })).toBe(1);
    // the state cookie went with its launch
    expect((await fresh.cookies()).filter((c) => c.name.startsWith("manabiya-lti-"))).toEqual([]);
    await fresh.close();
  });

  test("a teacher is launched onto the activity's console; under the academy's second-factor policy, only after the code step", async ({
    page,
  }) => {
    const { academy, school, teacher } = await makeSchool(0);
    await register(academy.id);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "guide",
    });
    const sub = await rosterId(teacher.id);
    await launchFromPortal(page, sub, activity.id, [INSTRUCTOR]);
    await expect(page).toHaveURL(`/dashboard/teacher/activities/guide/${activity.id}`);
    await expect(page.getByTestId("guide-idle").or(page.getByTestId("guide-console"))).toBeVisible();
    const devices = await e2eDb().deviceSession.findMany({ where: { userId: teacher.id }, select: { method: true } });
    expect(devices).toEqual([{ method: "lti" }]);

    await page.context().clearCookies();
    await e2eDb().academy.update({
      where: { id: academy.id },
      data: { requireSecondFactor: true, secondFactorGraceUntil: new Date(Date.now() - 60_000) },
    });
    await launchFromPortal(page, sub, activity.id, [INSTRUCTOR]);
    await expect(page).toHaveURL(/\/auth\/second-factor\?from=/);
    await page.goto(`/dashboard/teacher/activities/guide/${activity.id}`);
    await expect(page).toHaveURL(/\/auth\/second-factor\?from=/);
  });

  test("refusals: an unknown person, a person of another academy and a replayed launch post get a translated page, no session and no account", async ({
    page,
    browser,
  }) => {
    const { academy, school, students } = await makeSchool(1);
    await register(academy.id);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const nobody = randomUUID();
    await launchFromPortal(page, nobody, activity.id);
    await expectRefused(page, "unknownPerson", "このアカウントは、まなびやにありません。");
    expect(await e2eDb().user.count({ where: { sourcedId: nobody } })).toBe(0);
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/lti-refused-1280.png" });

    const other = await makeSchool(1);
    await launchFromPortal(page, await rosterId(other.students[0]!.id), activity.id);
    await expectRefused(page, "otherAcademy", "この学習eポータルを登録した学園のものではありません。");
    const otherStudent = { userId: other.students[0]!.id };
    expect(
      await e2eDb().user.findUnique({ where: { id: otherStudent.userId }, select: { lastSignInAt: true } }),
    ).toEqual({
      lastSignInAt: null,
    });
    expect(
      await e2eDb().auditLog.findFirst({
        where: { actorId: otherStudent.userId, action: "signin.lti.failure" },
        select: { meta: true, academyId: true },
      }),
    ).toEqual({ meta: { reason: "otherAcademy" }, academyId: academy.id });

    // the portal's id_token post, captured and sent again: its state was used
    const sub = await rosterId(students[0]!.id);
    const context = await browser.newContext();
    const tab = await context.newPage();
    let posted: { body: string } | null = null;
    tab.on("request", (r) => {
      if (r.url() === `${BASE_URL}/api/lti/launch`) posted = { body: r.postData() ?? "" };
    });
    await launchFromPortal(tab, sub, activity.id);
    await expect(tab).toHaveURL(`/dashboard/student/activities/solo/${activity.id}`);
    const replay = await tab.request.post(`${BASE_URL}/api/lti/launch`, {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: posted!.body,
      maxRedirects: 0,
    });
    expect(replay.status()).toBe(303);
    expect(replay.headers().location).toBe(`${BASE_URL}/lti/refused?reason=stateMismatch`);
    await context.close();
  });
});
