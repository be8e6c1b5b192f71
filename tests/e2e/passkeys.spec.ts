import { randomBytes } from "node:crypto";
import { type BrowserContext, expect, type Page, type Request, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
import { expectAccessible, signIn, signInAs } from "./helpers";

/**
 * Passkeys as a staff second factor (platform/auth/passkey.ts) in Chromium with its virtual authenticator (CTAP2,
 * built in, with user verification): a teacher registers one by name on the sign-ins page, signs out, signs in with
 * the password and confirms with the passkey at /auth/second-factor. A replayed answer (another challenge's) is
 * refused there with a translated message, a removed passkey is no longer offered, and no page opens before a right
 * one.
 */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 720 };
const LANGUAGES = ["ja", "ja-ruby", "ja-kana"] as const;

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

async function signOut(page: Page) {
  await page.getByTestId("drawer-trigger").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/signin$/);
}

async function signInToSecondFactor(page: Page, email: string) {
  await page.goto("/signin");
  await signIn(page, email, TEST_PASSWORD);
  await expect(page).toHaveURL(/\/auth\/second-factor/, { timeout: 60_000 });
  await expect(page.getByTestId("passkey-signin")).toBeVisible();
}

const isPasskeyAnswer = (r: Request) =>
  r.method() === "POST" && Boolean(r.headers()["next-action"]) && (r.postData() ?? "").includes("authenticatorData");

/** Sends `body` (an earlier sign-in's answer) instead of the browser's next passkey answer. */
async function replayNextAnswer(context: BrowserContext, body: string) {
  await context.route("**/auth/second-factor**", (route) =>
    isPasskeyAnswer(route.request()) ? route.continue({ postData: body }) : route.continue(),
  );
}

async function shots(page: Page, name: string, path: string) {
  for (const lang of LANGUAGES) {
    await page.context().addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
    for (const [size, viewport] of [
      ["phone", PHONE],
      ["1280", DESKTOP],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await page.screenshot({ path: `test-results/passkeys-${name}-${lang}-${size}.png`, fullPage: true });
    }
  }
  await page.context().addCookies([{ name: "manabiya-lang", value: "ja", url: BASE_URL }]);
  await page.setViewportSize(DESKTOP);
}

test("a teacher registers a passkey and signs in with it as the second factor; a replayed answer or a removed passkey is refused", async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize(DESKTOP);
  await virtualAuthenticator(page);
  const { teacher } = await makeSchool(0);
  const email = teacher.email!;
  await signInAs(page, email, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/signins");
  await expect(page.getByTestId("passkey-none")).toBeVisible();
  await page.getByTestId("passkey-name").fill("職員室のパソコン");
  await page.getByTestId("passkey-add").click();
  await expect(page.getByTestId("passkey-added")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("passkey")).toHaveCount(1);
  await expect(page.getByTestId("passkey")).toHaveAttribute("data-name", "職員室のパソコン");
  await expect(page.getByTestId("passkey-last-used")).toContainText("まだ使っていません");
  await expectAccessible(page);
  await shots(page, "settings", "/dashboard/teacher/signins");
  await signOut(page);

  // the password alone opens nothing; the passkey does
  await signInToSecondFactor(page, email);
  await shots(page, "signin", "/auth/second-factor");
  await page.goto("/dashboard/teacher/activities");
  await expect(page).toHaveURL(/\/auth\/second-factor\?from=%2Fdashboard%2Fteacher%2Factivities/);
  await expectAccessible(page);
  const answered = page.waitForRequest(isPasskeyAnswer);
  await page.getByTestId("passkey-signin").click();
  const firstAnswer = (await answered).postData()!;
  await expect(page).toHaveURL(/\/dashboard\/teacher\/activities$/, { timeout: 30_000 });
  await page.goto("/dashboard/teacher/signins");
  await expect(page.getByTestId("passkey-last-used")).not.toContainText("まだ使っていません");
  await signOut(page);

  // the same answer again (its challenge spent, this sign-in's is another): refused, still waiting
  await signInToSecondFactor(page, email);
  await replayNextAnswer(context, firstAnswer);
  await page.getByTestId("passkey-signin").click();
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "passkeyRefused");
  await expect(page.getByTestId("second-factor-error")).toContainText("このパスキーでは確認できませんでした");
  await page.goto("/dashboard/teacher/home");
  await expect(page).toHaveURL(/\/auth\/second-factor/);
  await context.unrouteAll({ behavior: "wait" });
  await page.getByTestId("passkey-signin").click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 30_000 });

  // removed (with a confirmation) while another passkey stays: the removed one's answer is refused
  await e2eDb().passkey.create({
    data: {
      userId: teacher.id,
      credentialId: randomBytes(16).toString("base64url"),
      publicKey: randomBytes(77),
      name: "USB key",
    },
  });
  await page.goto("/dashboard/teacher/signins");
  const mine = page.getByTestId("passkey").filter({ hasText: "職員室のパソコン" });
  await mine.getByTestId("passkey-remove").click();
  await expect(mine.getByTestId("confirm-dialog")).toBeVisible();
  await expect(mine.getByTestId("confirm-body")).toContainText("このパスキーでは、サインインできなくなります");
  await mine.getByTestId("confirm-ok").click();
  await expect(page.getByTestId("passkey")).toHaveCount(1);
  await expect(page.getByTestId("passkey")).toHaveAttribute("data-name", "USB key");
  await signOut(page);
  // the removed passkey is no longer offered: the browser's authenticator has none of the allowed ones and answers
  // nothing (the server's refusal of a removed credential's answer: platform/tests/passkey.integration.test.ts)
  await signInToSecondFactor(page, email);
  await page.getByTestId("passkey-signin").click();
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "passkeyCancelled");
  await page.goto("/dashboard/teacher/home");
  await expect(page).toHaveURL(/\/auth\/second-factor/);
  const log = await e2eDb().auditLog.findMany({
    where: { actorId: teacher.id, action: { startsWith: "signin.passkey" } },
    select: { action: true },
  });
  expect(log.map((e) => e.action).sort()).toEqual([
    "signin.passkey.failure",
    "signin.passkey.success",
    "signin.passkey.success",
  ]);
});

test("a browser without passkeys is told so, not that the person cancelled, and nothing is registered", async ({
  page,
}) => {
  await page.addInitScript(() => {
    // a browser that has no WebAuthn (an old tablet's, or one with it turned off)
    Reflect.deleteProperty(window, "PublicKeyCredential");
  });
  const { teacher } = await makeSchool(0);
  await signInAs(page, teacher.email!, TEST_PASSWORD);
  await page.goto("/dashboard/teacher/signins");
  await page.getByTestId("passkey-name").fill("古いタブレット");
  await page.getByTestId("passkey-add").click();
  await expect(page.getByTestId("second-factor-error")).toHaveAttribute("data-code", "passkeyUnsupported");
  await expect(page.getByTestId("second-factor-error")).toContainText("このブラウザでは、パスキーを使えません。");
  expect(await e2eDb().passkey.count({ where: { userId: teacher.id } })).toBe(0);
});
