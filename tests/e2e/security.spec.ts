import { expect, type Page, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";
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

/** A fresh student signed in on `page` and a solo activity of their school, with its free-text scene. */
async function freshAnswerer(page: Page) {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id, type: "free_text" },
    select: { id: true },
  });
  await signInAs(page, students[0]!.email!, TEST_PASSWORD);
  const stored = () => e2eDb().response.findMany({ where: { sceneId: scene.id }, select: { answer: true } });
  const body = (answer: unknown, key: string) => ({
    activityId: activity.id,
    sceneId: scene.id,
    answer,
    clientRevision: 1,
    idempotencyKey: key,
    mode: "self",
  });
  return { stored, body };
}

test("the answer API refuses another site's Origin and Origin: null", async ({ page }) => {
  const { stored, body } = await freshAnswerer(page);
  for (const origin of ["https://evil.example", "null"]) {
    const res = await page.request.post("/api/v1/answers", {
      data: body({ text: "よそから" }, "origin-check-1"),
      headers: { Origin: origin },
    });
    expect(res.status(), origin).toBe(403);
    expect(await res.json()).toMatchObject({ ok: false, code: "FORBIDDEN" });
  }
  expect(await stored()).toEqual([]);
  // the control: the same save from the app's own origin is stored (the refusals above are the Origin's doing)
  const own = await page.request.post("/api/v1/answers", {
    data: body({ text: "じぶんから" }, "origin-check-1"),
    headers: { Origin: BASE_URL },
  });
  expect(own.status()).toBe(200);
  expect(await stored()).toEqual([{ answer: { text: "じぶんから" } }]);
});

test("the answer API refuses a body over 64 KB with 413 and stores nothing", async ({ page }) => {
  const { stored, body } = await freshAnswerer(page);
  const res = await page.request.post("/api/v1/answers", {
    data: body({ text: "あ".repeat(40_000) }, "too-large-1"),
    headers: { Origin: BASE_URL },
  });
  expect(res.status()).toBe(413);
  expect(await res.json()).toMatchObject({ ok: false, code: "VALIDATION" });
  expect(await stored()).toEqual([]);
  // the control: a long answer under the limit to the same scene is stored
  const under = { text: "あ".repeat(200) };
  const ok = await page.request.post("/api/v1/answers", {
    data: body(under, "under-limit-1"),
    headers: { Origin: BASE_URL },
  });
  expect(ok.status()).toBe(200);
  expect(await stored()).toEqual([{ answer: under }]);
});
