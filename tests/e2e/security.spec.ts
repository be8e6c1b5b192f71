import { expect, test } from "@playwright/test";
import { e2eDb } from "./db";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { signInAs } from "./helpers";

test("security headers on pages; the pages run under the CSP without a single violation", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto("/signin");
  const h = res!.headers();
  expect(h["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["referrer-policy"]).toBe("same-origin");
  expect(h["x-powered-by"]).toBeUndefined();
  // every script tag of the page carries the nonce of this response
  const nonce = /'nonce-([^']+)'/.exec(h["content-security-policy"]!)![1];
  const scripts = await page.locator("script").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((n) => n === nonce)).toBe(true);

  // sign in and use pages with math, dialogs and live streams: hydration works under the policy
  await signInAs(page, "student01@example.com");
  await page.goto(`/dashboard/student/activities/solo/${DEMO_IDS.scienceActivity}`);
  await expect(page.getByTestId("scene")).toBeVisible();
  await page.getByTestId("next").click();
  await page.goto(`/dashboard/student/activities/session/${DEMO_IDS.mathActivity}`);
  await expect(page.getByTestId("live-session")).toBeVisible();
  expect(violations).toEqual([]);
});

test("the answer API refuses another site's Origin and Origin: null", async ({ page }) => {
  await signInAs(page, "student02@example.com");
  const body = { activityId: DEMO_IDS.scienceActivity, sceneId: DEMO_IDS.scienceActivity, answer: {}, clientRevision: 1, idempotencyKey: "origin-check-1", mode: "self" };
  for (const origin of ["https://evil.example", "null"]) {
    const res = await page.request.post("/api/v1/answers", { data: body, headers: { Origin: origin } });
    expect(res.status()).toBe(403);
  }
});

test("the answer API refuses a body over 64 KB with 413 and stores nothing", async ({ page }) => {
  await signInAs(page, "student02@example.com");
  const scene = await e2eDb().activityScene.findFirstOrThrow({ where: { activityId: DEMO_IDS.scienceActivity, type: "free_text" }, select: { id: true } });
  const before = await e2eDb().response.count({ where: { sceneId: scene.id } });
  const body = { activityId: DEMO_IDS.scienceActivity, sceneId: scene.id, answer: { text: "あ".repeat(40_000) }, clientRevision: 1, idempotencyKey: "too-large-1", mode: "self" };
  const res = await page.request.post("/api/v1/answers", { data: body });
  expect(res.status()).toBe(413);
  expect(await res.json()).toMatchObject({ ok: false, code: "VALIDATION" });
  expect(await e2eDb().response.count({ where: { sceneId: scene.id } })).toBe(before);
});
