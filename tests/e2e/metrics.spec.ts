import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import { BASE_URL, E2E_METRICS_TOKEN, E2E_PORT } from "./config";
import { e2eDb, makeSchool, sessionCookieFor, TEST_PASSWORD } from "./db";
import { cookieHeader } from "./cookies";
import { signIn } from "./helpers";
import { AppInstance } from "./instance";

/**
 * GET /metrics (app/metrics/route.ts) on the production server, which the e2e run starts
 * with METRICS_TOKEN set: guarded by the bearer token, and counting what happens.
 */
const auth = (token = E2E_METRICS_TOKEN) => ({ Authorization: `Bearer ${token}` });

/** The samples of a scrape: one entry per series, its labels parsed. */
type Sample = { name: string; labels: Record<string, string>; value: number };
function parse(text: string): Sample[] {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a Prometheus sample: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]),
      );
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

async function scrape(base = BASE_URL): Promise<Sample[]> {
  const res = await fetch(`${base}/metrics`, { headers: auth() });
  expect(res.status).toBe(200);
  return parse(await res.text());
}

/** The sum of `name`'s series whose labels include `labels` (0 when there is none yet). */
const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
const current = async (name: string, labels: Record<string, string> = {}) => value(await scrape(), name, labels);

const LISTED = [
  "http_requests_total",
  "http_request_duration_seconds",
  "manabiya_answers_saved_total",
  "manabiya_answer_save_duration_seconds",
  "manabiya_answer_save_errors_total",
  "manabiya_sse_streams_open",
  "manabiya_db_pool_connections",
  "manabiya_db_pool_idle_connections",
  "manabiya_db_pool_waiting_requests",
  "manabiya_signin_failures_total",
  "manabiya_pdf_jobs_total",
  "manabiya_pdf_job_duration_seconds",
  "manabiya_mail_send_failures_total",
  "process_cpu_seconds_total",
  "nodejs_eventloop_lag_seconds",
];

test("metrics: without the token or with another one, 401 and not one metric; never cached", async () => {
  for (const headers of [
    {},
    auth("x".repeat(34)),
    auth(`${E2E_METRICS_TOKEN}x`),
    { Authorization: `Basic ${E2E_METRICS_TOKEN}` },
    { Authorization: "Bearer " },
  ]) {
    const res = await fetch(`${BASE_URL}/metrics`, { headers });
    const body = await res.text();
    expect(res.status, JSON.stringify(headers)).toBe(401);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(body).not.toMatch(/http_requests_total|manabiya_|process_|# (HELP|TYPE)/);
  }
});

test("metrics: with the token, 200 in Prometheus text format with every listed metric, never cached", async () => {
  const res = await fetch(`${BASE_URL}/metrics`, { headers: auth() });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = await res.text();
  for (const name of LISTED) expect(body, name).toContain(`# TYPE ${name} `);
  // the requests of this very run are counted by route pattern
  expect(value(parse(body), "http_requests_total", { route: "/signin", method: "GET", status: "200" })).toBeGreaterThan(
    0,
  );
});

test("metrics: a student's saved answer counts in the answers counter, the save latency histogram and the pools", async () => {
  const { school, students } = await makeSchool(1);
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const scene = await e2eDb().activityScene.findFirstOrThrow({
    where: { activityId: activity.id },
    orderBy: { position: "asc" },
  });
  const before = await scrape();
  const res = await fetch(`${BASE_URL}/api/v1/answers`, {
    method: "POST",
    headers: { Cookie: await sessionCookieFor(students[0]!.id), "Content-Type": "application/json", Origin: BASE_URL },
    body: JSON.stringify({
      activityId: activity.id,
      sceneId: scene.id,
      answer: { seen: true },
      clientRevision: 1,
      idempotencyKey: `metrics-${activity.id}`,
      mode: "self",
    }),
  });
  expect(res.status).toBe(200);
  const after = await scrape();
  // other tests save answers at the same time: at least this one more
  expect(value(after, "manabiya_answers_saved_total")).toBeGreaterThanOrEqual(
    value(before, "manabiya_answers_saved_total") + 1,
  );
  expect(value(after, "manabiya_answer_save_duration_seconds_count")).toBeGreaterThanOrEqual(
    value(before, "manabiya_answer_save_duration_seconds_count") + 1,
  );
  expect(
    value(after, "http_requests_total", { route: "/api/v1/answers", method: "POST", status: "200" }),
  ).toBeGreaterThanOrEqual(
    value(before, "http_requests_total", { route: "/api/v1/answers", method: "POST", status: "200" }) + 1,
  );
  expect(value(after, "manabiya_db_pool_connections", { pool: "answers" })).toBeGreaterThanOrEqual(1);
  expect(value(after, "manabiya_db_pool_connections", { pool: "prisma" })).toBeGreaterThanOrEqual(1);
});

test("metrics: answers refused before the save (not JSON, over the size limit, another site's Origin) count as refused", async () => {
  const { students } = await makeSchool(1);
  const cookie = await sessionCookieFor(students[0]!.id);
  const refused = { kind: "refused" };
  const before = await current("manabiya_answer_save_errors_total", refused);
  const post = (body: string, origin = BASE_URL) =>
    fetch(`${BASE_URL}/api/v1/answers`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json", Origin: origin },
      body,
    });
  expect((await post("{not json")).status).toBe(400);
  expect((await post(JSON.stringify({ pad: "x".repeat(70_000) }))).status).toBe(413);
  expect((await post("{}", "https://evil.example")).status).toBe(403);
  // other tests refuse answers at the same time: at least these three more
  await expect
    .poll(() => current("manabiya_answer_save_errors_total", refused), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(before + 3);
});

test("metrics: a failed sign-in counts by method and reason; an open live stream in the streams gauge", async ({
  page,
}) => {
  const { teacher, school } = await makeSchool(0);
  const failures = { method: "password", reason: "wrongPassword" };
  const before = await current("manabiya_signin_failures_total", failures);
  await page.goto("/signin");
  await signIn(page, teacher.email!, "not-the-password");
  await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "wrongPassword", { timeout: 30_000 });
  await expect
    .poll(() => current("manabiya_signin_failures_total", failures), { timeout: 20_000 })
    .toBeGreaterThanOrEqual(before + 1);

  await signIn(page, teacher.email!, TEST_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 60_000 });
  const cookie = await cookieHeader(page.context());
  const activity = await createActivityFromTemplate(e2eDb(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
  });
  const controller = new AbortController();
  const stream = await fetch(`${BASE_URL}/api/v1/live/${activity.id}/events`, {
    headers: { Cookie: cookie },
    signal: controller.signal,
  });
  expect(stream.status).toBe(200);
  try {
    await expect.poll(() => current("manabiya_sse_streams_open"), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
  } finally {
    controller.abort();
  }
});

test("metrics: a sign-in sheets print counts as a PDF job, with its rendering time", async ({ page }) => {
  const { teacher, students } = await makeSchool(1);
  await page.goto("/signin");
  await signIn(page, teacher.email!, TEST_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard\/teacher\/home$/, { timeout: 60_000 });
  const cookie = await cookieHeader(page.context());
  const before = await scrape();
  const res = await fetch(`${BASE_URL}/api/students/sheets`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json", Origin: BASE_URL },
    body: JSON.stringify({ ids: students[0]!.id }),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/pdf/);
  const after = await scrape();
  const ok = { kind: "signin_sheets", outcome: "ok" };
  expect(value(after, "manabiya_pdf_jobs_total", ok)).toBeGreaterThanOrEqual(
    value(before, "manabiya_pdf_jobs_total", ok) + 1,
  );
  expect(value(after, "manabiya_pdf_job_duration_seconds_count")).toBeGreaterThanOrEqual(
    value(before, "manabiya_pdf_job_duration_seconds_count") + 1,
  );
});

test("metrics: a flood of random paths adds no series: unknown paths are 'other', ids their route's pattern", async () => {
  test.setTimeout(180_000);
  const seriesOf = (samples: Sample[]) => samples.filter((s) => s.name === "http_requests_total");
  const before = seriesOf(await scrape()).length;
  const marker = randomBytes(4).toString("hex");
  const paths = Array.from({ length: 600 }, (_, i) => {
    const r = `${marker}${i.toString(36)}`;
    return [
      `/${r}`,
      `/dashboard/teacher/portfolio/${r}`,
      `/api/v1/live/${r}/state?x=${r}`,
      `/_next/static/${r}.js`,
      `/favicon.ico/${r}`,
      `/%ED%A0%80${r}`,
    ][i % 6]!;
  });
  // a few at a time (the CI box is shared); every reply is an answer of the app, never a 5xx
  for (let i = 0; i < paths.length; i += 8) {
    const statuses = await Promise.all(
      paths
        .slice(i, i + 8)
        .map((p, j) =>
          fetch(`${BASE_URL}${p}`, { method: (i + j) % 50 === 0 ? "PROPFIND" : "GET", redirect: "manual" }).then(
            (r) => r.status,
          ),
        ),
    );
    for (const status of statuses) expect(status).toBeLessThan(500);
  }
  const after = await scrape();
  const series = seriesOf(after);
  expect(series.some((s) => Object.values(s.labels).some((v) => v.includes(marker)))).toBe(false);
  // 600 distinct paths: at most a handful of new series (other × method × status, the patterns' statuses), whatever else runs meanwhile
  expect(series.length - before).toBeLessThan(30);
  expect(value(after, "http_requests_total", { route: "other" })).toBeGreaterThanOrEqual(200);
  expect(value(after, "http_requests_total", { route: "other", method: "other" })).toBeGreaterThanOrEqual(1);
  expect(
    value(after, "http_requests_total", { route: "/dashboard/teacher/portfolio/[studentId]" }),
  ).toBeGreaterThanOrEqual(100);
});

test.describe("a server whose SMTP server is away", () => {
  // nothing listens on the SMTP port given: every send fails
  const app = new AppInstance(E2E_PORT + 92, undefined, {
    METRICS_TOKEN: E2E_METRICS_TOKEN,
    SMTP_URL: `smtp://127.0.0.1:${E2E_PORT + 93}`,
  });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await app.start();
  });
  test.afterAll(() => app.stop());

  test("metrics: a reset mail that cannot be sent counts as a mail failure; the page still says it was sent", async ({
    browser,
  }) => {
    const { teacher } = await makeSchool(0);
    expect(value(await scrape(app.url), "manabiya_mail_send_failures_total")).toBe(0);
    const context = await browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    await page.goto("/auth/forgot");
    await page.getByLabel("メールアドレス").fill(teacher.email!);
    await page.getByRole("button", { name: /リンクを/ }).click();
    await expect(page.getByTestId("forgot-sent")).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(async () => value(await scrape(app.url), "manabiya_mail_send_failures_total"), { timeout: 30_000 })
      .toBe(1);
    await context.close();
  });
});

test.describe("a server without METRICS_TOKEN", () => {
  const app = new AppInstance(E2E_PORT + 91, undefined, { METRICS_TOKEN: "" });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await app.start();
  });
  test.afterAll(() => app.stop());

  test("metrics: off: 404 whatever token is sent", async () => {
    for (const headers of [{}, auth()]) {
      const res = await fetch(`${app.url}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toMatch(/http_requests_total|manabiya_|# (HELP|TYPE)/);
    }
  });
});
