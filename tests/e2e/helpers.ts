import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";
import { AUTH_DIR } from "./config";

export const DEMO_PASSWORD = "manabiya-demo";
export const storageStateOf = (role: "student" | "teacher" | "manager") => `${AUTH_DIR}/${role}.json`;
/** A teacher's editor of an activity of their school. */
export const editUrl = (id: string) => `/dashboard/teacher/activities/edit/${id}`;

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel("メールアドレス").fill(email);
  await page.getByLabel("パスワード").fill(password);
  await page.getByRole("button", { name: "サインイン", exact: true }).click();
}

/** axe: no serious or critical violation. */
export async function expectAccessible(page: Page) {
  // axe's default mode opens a blank page to gather each frame's results (1 to 4 s a check on two shared cores); a
  // page without frames has nothing to gather, and axe checks it whole in the page itself. Only the violations are
  // read: axe then sends one node of each passed rule instead of every node (1.5 MB from a class's table, half the
  // check's time)
  const framed = page.frames().length > 1;
  const results = await new AxeBuilder({ page })
    .setLegacyMode(!framed)
    .options({ resultTypes: ["violations"] })
    .analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** The text a reader sees with ruby readings left out (base text only). */
export function baseText(locator: Locator): Promise<string> {
  return locator.evaluate((el) => {
    const clone = el.cloneNode(true) as HTMLElement;
    clone.querySelectorAll("rt, rp").forEach((n) => n.remove());
    return (clone.textContent ?? "").trim();
  });
}

/** Signs in from /signin and waits until the user's home is shown. */
export async function signInAs(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/signin");
  await signIn(page, email, password);
  // argon2 on a loaded box (CI shares its cores): generous, it is a poll
  await expect(page).toHaveURL(/\/dashboard\/(student|teacher|manager)\/home$/, { timeout: 60_000 });
}

/** Visible text of the page (what a reader sees, ruby readings included). */
export const visibleText = (page: Page) => page.evaluate(() => document.body.innerText);

/** Picks a display language in the language switcher and waits until the page has it. */
export async function chooseLanguage(page: Page, lang: "ja" | "ja-ruby" | "ja-kana") {
  await page.getByTestId("language-switcher").click();
  await page.locator(`[role="menuitemradio"][data-lang="${lang}"]`).click();
  await expect(page.getByTestId("language-switcher")).not.toHaveAttribute("aria-busy", "true");
}

/** Confirms the open confirmation dialog. */
export const confirmOpenDialog = (page: Page) => page.locator('dialog[open] [data-testid="confirm-ok"]').click();

/** Waits for a notification whose text (ruby readings left out) contains `text`. */
export async function expectNotification(page: Page, text: string) {
  await expect
    .poll(async () => {
      const notes = page.getByTestId("notification");
      const all = await notes.evaluateAll((els) =>
        els.map((el) => {
          const clone = el.cloneNode(true) as HTMLElement;
          clone.querySelectorAll("rt, rp").forEach((n) => n.remove());
          return clone.textContent ?? "";
        }),
      );
      return all.some((t) => t.includes(text));
    })
    .toBe(true);
}

/** Presses Tab (keyboard only) until `target` has the focus; fails after `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 12, key: "Tab" | "Shift+Tab" = "Tab") {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

/**
 * Waits until React has hydrated `locator`'s element (its props are attached), so a keypress
 * or click reaches the component's handler and not the form's native submission that runs
 * before hydration (a race a loaded machine loses).
 */
export async function expectHydrated(locator: Locator) {
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps"))), {
      timeout: 30_000,
    })
    .toBe(true);
}

/** A sign-in through the local OpenID provider's own sign-in and consent pages, from the sign-in page's `button`. */
export async function signInThroughProvider(
  page: Page,
  button: "google-signin" | "entra-signin" | "academy-signin",
  login: string,
  signinPage = "/signin",
) {
  await page.goto(signinPage);
  await page.getByTestId(button).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.locator('button[type="submit"]').click();
  await page.locator('button:has-text("Continue")').click();
}
