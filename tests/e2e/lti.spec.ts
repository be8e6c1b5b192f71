import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { type LtiPlatformEmulator, startLtiPlatform } from "../support/lti-platform";
import { giveSourcedId, INSTRUCTOR, LEARNER, ltiLaunchHint, registerPlatform } from "../support/lti-setup";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { baseText, chooseLanguage, expectAccessible, expectHydrated, signInAs, tabTo } from "./helpers";

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

const register = (academyId: string) => registerPlatform(e2eDb(), platform, academyId);
const rosterId = (userId: string) => giveSourcedId(e2eDb(), userId);
const launchHint = (sub: string, activityId: string) => ltiLaunchHint(platform, BASE_URL, { sub, activityId });

/** Starts a launch at the portal: its login initiation, our redirect to its auth URL, its id_token post. */
async function launchFromPortal(page: Page, sub: string, activityId: string, roles = [LEARNER]) {
  await page.goto(platform.startUrl(ltiLaunchHint(platform, BASE_URL, { sub, activityId, roles })));
}

/**
 * Opens `framing` (a page holding `src` in its iframe #tool): our page answers (200, the session's cookie went with
 * the request), and the browser refuses to show it in that frame (its frame-ancestors).
 */
async function expectFrameRefused(page: Page, framing: string) {
  const src = new URL(framing).searchParams.get("src")!;
  const answered = page.waitForResponse(src);
  await page.goto(framing);
  const response = await answered;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors");
  await expect.poll(() => page.frames()[1]?.url()).toBe("chrome-error://chromewebdata/");
  await expect(page.frameLocator("#tool").getByTestId("my-activities")).toHaveCount(0);
}

async function expectRefused(page: Page, code: string, text: string) {
  // a refusal once the platform is known carries a frame pass for its portal (platform/security/frame-pass.ts)
  await expect(page).toHaveURL(new RegExp(`/lti/refused\\?reason=${code}(&f=[\\w.-]+)?$`));
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

  test("a teacher deep-links an activity: the picker (keyboard, three languages) posts a signed LtiDeepLinkingResponse to the portal, and a student launched through the returned link lands in the activity", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const { academy, school, teacher, students } = await makeSchool(1);
    await register(academy.id);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    await e2eDb().activity.update({
      where: { id: activity.id },
      data: { title: "|溶(と)け|方(かた)を|調(しら)べよう" },
    });
    await createActivityFromTemplate(e2eDb(), { templateId: "science-dissolve", schoolId: school.id, mode: "guide" });
    const hint = platform.prepare({
      sub: await rosterId(teacher.id),
      deploymentId: platform.deploymentId,
      targetLinkUri: `${BASE_URL}/lti/deep-link`,
      roles: [INSTRUCTOR],
      deepLinking: { data: "portal-e2e-data" },
    });
    await page.goto(platform.startUrl(hint));
    await expect(page).toHaveURL(/\/lti\/deep-link\?request=[\w-]{43}$/);
    const pickerUrl = page.url();
    await expect(page.getByTestId("deep-link-choice")).toHaveCount(2);
    await expectAccessible(page);
    for (const lang of ["ja", "ja-ruby", "ja-kana"] as const) {
      await chooseLanguage(page, lang);
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.screenshot({ path: `test-results/lti-deep-link-${lang}-1280.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `test-results/lti-deep-link-${lang}-390.png` });
    }
    const choice = page.locator(`[data-testid="deep-link-choice"][data-activity="${activity.id}"]`);
    await expect(choice).toHaveAccessibleName("「とけかたをしらべよう」を えらぶ"); // kana only: the title's readings
    await page.setViewportSize({ width: 1280, height: 720 });
    await chooseLanguage(page, "ja");
    await expect(choice).toHaveAccessibleName("「溶け方を調べよう」を選ぶ");
    await expectHydrated(choice);
    await tabTo(page, choice, 20);
    const handoff = page.waitForResponse(`${BASE_URL}/api/lti/deep-link`);
    await page.keyboard.press("Enter");
    // the hand-off page's own policy: its one script, its form to the portal's origin only, framed by the portal only
    const policy = (await handoff).headers()["content-security-policy"];
    expect(policy).toMatch(/^default-src 'none'; script-src 'nonce-[\w+/=]+'; form-action http:\/\/127\.0\.0\.1:\d+;/);
    expect(policy).toMatch(new RegExp(`frame-ancestors ${platform.issuer}$`));
    await expect(page).toHaveURL(platform.deepLinkReturnUrl);
    await expect(page.locator("#returned")).toHaveText("received");

    // what the portal received: our JWKS verifies it, and it names the activity
    expect(platform.returned).toHaveLength(1);
    const { payload } = await jwtVerify(
      platform.returned[0]!,
      createRemoteJWKSet(new URL(`${BASE_URL}/api/lti/jwks`)),
      {
        issuer: platform.clientId,
        audience: platform.issuer,
        algorithms: ["RS256"],
      },
    );
    expect(payload["https://purl.imsglobal.org/spec/lti/claim/message_type"]).toBe("LtiDeepLinkingResponse");
    expect(payload["https://purl.imsglobal.org/spec/lti-dl/claim/data"]).toBe("portal-e2e-data");
    const items = payload["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"] as {
      url: string;
      title: string;
    }[];
    expect(items).toEqual([
      {
        type: "ltiResourceLink",
        url: `${BASE_URL}/lti/activities/${activity.id}`,
        title: "溶け方を調べよう",
        custom: { activity_id: activity.id },
      },
    ]);

    // the pick was used: the picker shows nothing to pick now
    await page.goto(pickerUrl);
    await expect(page.getByTestId("deep-link-none")).toBeVisible();
    await expect(page.getByTestId("deep-link-choice")).toHaveCount(0);

    // the link the portal placed, launched by a student
    const fresh = await browser.newContext();
    const tablet = await fresh.newPage();
    const launch = platform.prepare({
      sub: await rosterId(students[0]!.id),
      deploymentId: platform.deploymentId,
      targetLinkUri: items[0]!.url,
    });
    await tablet.goto(platform.startUrl(launch));
    await expect(tablet).toHaveURL(`/dashboard/student/activities/solo/${activity.id}`);
    await expect(tablet.getByTestId("progress")).toContainText("1 / 5");
    await fresh.close();
  });

  test("inside the portal's iframe (another site): a student is launched and answers a scene in the frame; the session cookie is SameSite=None, Secure and Partitioned, and only the portal may frame the pages", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { academy, school, students } = await makeSchool(1);
    await register(academy.id);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const sub = await rosterId(students[0]!.id);
    const solo = `${BASE_URL}/dashboard/student/activities/solo/${activity.id}`;
    const landed = page.waitForResponse(solo);
    const portalPage = platform.frameUrl(platform.startUrl(launchHint(sub, activity.id)));
    await page.goto(portalPage);
    const tool = page.frameLocator("#tool");
    await expect(tool.getByTestId("progress")).toContainText("1 / 5");
    await expect(page).toHaveURL(portalPage); // the portal's page stays the top one
    expect((await landed).headers()["content-security-policy"]?.split("; ").at(-1)).toBe(
      `frame-ancestors ${platform.issuer}`,
    );
    const session = (await page.context().cookies()).find((c) => c.name === "manabiya.session");
    expect(session).toMatchObject({ sameSite: "None", secure: true, httpOnly: true, path: "/" });
    expect(session?.partitionKey).toContain("127.0.0.1");

    // the student answers the second scene inside the frame: the answer is stored (this Chromium refuses the frame
    // its localStorage, so the answer queue works from the page's memory)
    await tool.getByTestId("next").click();
    await tool.locator('[data-option="same"] input').check();
    await tool.locator('[data-testid="second-step"] [data-option="sure"] input').check();
    await tool.getByTestId("reason").locator("textarea").fill("なくならないから");
    await expect(tool.getByTestId("save-status")).toHaveAttribute("data-status", "saved");
    await tool.getByTestId("next").click();
    await expect(tool.getByTestId("progress")).toContainText("3 / 5");
    await expect
      .poll(() => e2eDb().response.count({ where: { userId: students[0]!.id, activityId: activity.id } }))
      .toBeGreaterThan(0);
    await page.screenshot({ path: "test-results/lti-iframe-1280.png" });
  });

  test("inside the portal's iframe: a refused launch shows its translated page; a kana student sees kana; signing out clears the partitioned cookies and shows a link to a new window, never the sign-in form", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { academy, school, students } = await makeSchool(1);
    await register(academy.id);
    await e2eDb().user.update({ where: { id: students[0]!.id }, data: { displayLanguage: "ja-kana" } });
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const tool = page.frameLocator("#tool");

    // an unknown person: our translated refusal in the frame (framed by the portal only), not the browser's error
    const refusal = page.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/lti/refused?`));
    await page.goto(platform.frameUrl(platform.startUrl(launchHint(randomUUID(), activity.id))));
    await expect(tool.getByTestId("lti-refused")).toHaveAttribute("data-code", "unknownPerson");
    expect((await refusal).headers()["content-security-policy"]?.split("; ").at(-1)).toBe(
      `frame-ancestors ${platform.issuer}`,
    );
    // the same address framed by another origin is refused
    const other = await startLtiPlatform({ toolUrl: BASE_URL });
    try {
      const refusedUrl = (await refusal).url();
      await page.goto(other.frameUrl(refusedUrl));
      await expect.poll(() => page.frames()[1]?.url()).toBe("chrome-error://chromewebdata/");
    } finally {
      await other.close();
    }

    // the kana student, launched in the frame, sees kana (the language cookie is framed like the session's)
    await page.goto(platform.frameUrl(platform.startUrl(launchHint(await rosterId(students[0]!.id), activity.id))));
    await expect(tool.getByTestId("progress")).toContainText("1 / 5");
    const cookies = async () => (await page.context().cookies()).map((c) => c.name);
    expect(await cookies()).toEqual(expect.arrayContaining(["manabiya.session", "manabiya-lang"]));
    const frame = page.frames()[1]!;
    await frame.goto(`${BASE_URL}/dashboard/student/home`);
    await tool.getByTestId("language-switcher").click();
    await expect(tool.locator('[role="menuitemradio"][aria-checked="true"]')).toHaveAttribute("data-lang", "ja-kana");
    await page.screenshot({ path: "test-results/lti-iframe-kana-1280.png" });
    await tool.getByTestId("language-switcher").press("Escape");

    // signing out in the frame: the frame shows a link to open us in a new window, and no cookie is left behind
    await tool.getByTestId("drawer-trigger").click();
    await tool.getByTestId("sign-out").click();
    await expect(tool.getByTestId("lti-open-window")).toHaveAttribute("target", "_blank");
    await expect(tool.locator('input[type="password"]')).toHaveCount(0);
    await expect.poll(cookies).not.toContain("manabiya.session");
    expect(await cookies()).not.toContain("manabiya-lang");
    await page.screenshot({ path: "test-results/lti-iframe-signed-out-1280.png" });
    // the next request from the frame is signed out
    const home = page.waitForResponse(`${BASE_URL}/dashboard/student/home`);
    await frame.goto(`${BASE_URL}/dashboard/student/home`).catch(() => null);
    expect((await home).headers().location).toMatch(/\/signin\?from=/);
  });

  test("inside the iframe of a portal nobody registered: the refused launch shows its translated page, framed by the origin the login came from only", async ({
    page,
  }) => {
    const { school } = await makeSchool(0);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    // `platform` is registered by no academy: its login initiation names an unknown issuer
    const refusal = page.waitForResponse((r) => r.url().startsWith(`${BASE_URL}/lti/refused?`));
    await page.goto(platform.frameUrl(platform.startUrl(launchHint(randomUUID(), activity.id))));
    const tool = page.frameLocator("#tool");
    await expect(tool.getByTestId("lti-refused")).toHaveAttribute("data-code", "unknownIssuer");
    await expect(tool.getByRole("heading", { level: 1 })).toBeVisible();
    expect((await refusal).headers()["content-security-policy"]?.split("; ").at(-1)).toBe(
      `frame-ancestors ${platform.issuer}`,
    );
    await page.screenshot({ path: "test-results/lti-iframe-unknown-portal-1280.png" });
    // the same address framed by another origin is refused
    const other = await startLtiPlatform({ toolUrl: BASE_URL });
    try {
      await page.goto(other.frameUrl((await refusal).url()));
      await expect.poll(() => page.frames()[1]?.url()).toBe("chrome-error://chromewebdata/");
    } finally {
      await other.close();
    }
  });

  test("framing is refused: an LTI session's page inside a page of another origin, a password session's page inside any page", async ({
    page,
    browser,
  }) => {
    const { academy, school, students } = await makeSchool(2);
    await register(academy.id);
    const activity = await createActivityFromTemplate(e2eDb(), {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    await page.goto(platform.frameUrl(platform.startUrl(launchHint(await rosterId(students[0]!.id), activity.id))));
    await expect(page.frameLocator("#tool").getByTestId("progress")).toContainText("1 / 5");
    // another origin (another port of the portal's host: the partitioned cookie still goes with the request)
    const other = await startLtiPlatform({ toolUrl: BASE_URL });
    try {
      await expectFrameRefused(page, other.frameUrl(`${BASE_URL}/dashboard/student/home`));
    } finally {
      await other.close();
    }

    // a student signed in with a password, then a page of the same site (localhost, another port) frames ours
    const context = await browser.newContext();
    const tablet = await context.newPage();
    await signInAs(tablet, students[1]!.email!, TEST_PASSWORD);
    const sameSite = await startLtiPlatform({ toolUrl: BASE_URL, host: "localhost" });
    try {
      await expectFrameRefused(tablet, sameSite.frameUrl(`${BASE_URL}/dashboard/student/home`));
    } finally {
      await sameSite.close();
      await context.close();
    }
  });

  test("deep linking: a student's request gets the translated refusal page and no session; a teacher without activities sees the empty state", async ({
    page,
  }) => {
    const { academy, teacher, students } = await makeSchool(1);
    await register(academy.id);
    const deepLink = async (userId: string, roles: string[]) =>
      page.goto(
        platform.startUrl(
          platform.prepare({
            sub: await rosterId(userId),
            deploymentId: platform.deploymentId,
            targetLinkUri: `${BASE_URL}/lti/deep-link`,
            roles,
            deepLinking: {},
          }),
        ),
      );
    await deepLink(students[0]!.id, [INSTRUCTOR]);
    await expectRefused(page, "staffOnly", "先生と学園の管理者だけです。");
    expect(await e2eDb().ltiDeepLinkRequest.count({ where: { userId: students[0]!.id } })).toBe(0);

    await deepLink(teacher.id, [INSTRUCTOR]);
    await expect(page).toHaveURL(/\/lti\/deep-link\?request=/);
    await expect(page.getByTestId("deep-link-empty")).toContainText("選べるアクティビティがありません。");
    await expectAccessible(page);
    expect(platform.returned).toEqual([]);
  });
});
