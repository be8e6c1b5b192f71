import { type APIRequestContext, type APIResponse, expect, type Page, test } from "@playwright/test";
import { BASE_URL } from "../e2e/config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "../e2e/db";
import { AppInstance } from "../e2e/instance";
import { mailCount, waitForMail } from "../e2e/mail";

/**
 * Accounts cannot be taken: guessing in parallel,
 * links built from a forged Host, and a forged X-Forwarded-For. Sign-ins go
 * through next-auth's own credentials endpoint, as a script would send them.
 */

const SESSION_COOKIE = /(?:^|\n)(?:__Host-)?manabiya\.session=[^;]+/;

async function csrfToken(ctx: APIRequestContext): Promise<string> {
  const res = await ctx.get("/api/auth/csrf");
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

function credentialsPost(
  ctx: APIRequestContext,
  provider: "password" | "code",
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return ctx.post(`/api/auth/callback/${provider}`, { form, headers, maxRedirects: 0 });
}

/** Whether the response set a session cookie (a sign-in that worked). */
function signedIn(res: APIResponse): boolean {
  const cookies = res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value)
    .join("\n");
  return SESSION_COOKIE.test(cookies) && !/manabiya\.session=;/.test(cookies);
}

async function parallel<T>(n: number, run: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => run(i)));
}

/** The fields of the "forgot password" form as the page renders them (the form also works without JavaScript). */
async function forgotForm(page: Page, email: string): Promise<Record<string, string>> {
  await page.goto("/auth/forgot");
  await page.getByLabel("メールアドレス").fill(email);
  return page
    .locator("form")
    .first()
    .evaluate((form) => {
      const out: Record<string, string> = {};
      new FormData(form as HTMLFormElement).forEach((v, k) => (out[k] = String(v)));
      return out;
    });
}

test.describe("parallel guessing", () => {
  test.setTimeout(120_000);

  test("200 concurrent wrong passwords verify at most the limit, then the right password is refused", async ({
    playwright,
  }) => {
    const { teacher } = await makeSchool(0);
    const ctx = await playwright.request.newContext({ baseURL: BASE_URL });
    const token = await csrfToken(ctx);
    const replies = await parallel(200, (i) =>
      credentialsPost(ctx, "password", { email: teacher.email!, password: `wrong-${i}`, csrfToken: token }),
    );
    for (const r of replies) expect(r.status()).toBeLessThan(500);
    expect(replies.some(signedIn)).toBe(false);
    // every argon2 verification of a wrong password leaves one failure in the audit log
    const verified = await e2eDb().auditLog.count({
      where: { actorId: teacher.id, action: "signin.password.failure" },
    });
    expect(verified).toBeGreaterThan(0);
    expect(verified).toBeLessThanOrEqual(10);
    const right = await credentialsPost(ctx, "password", {
      email: teacher.email!,
      password: TEST_PASSWORD,
      csrfToken: token,
    });
    expect(right.status()).toBeLessThan(500);
    expect(signedIn(right)).toBe(false);
    await ctx.dispose();
  });

  test("200 concurrent tries of one sign-in code are checked at most the limit, then the code is refused while locked", async ({
    playwright,
  }) => {
    const { students } = await makeSchool(1);
    const student = students[0]!;
    await e2eDb().signinCode.updateMany({ where: { userId: student.id }, data: { revokedAt: new Date() } });
    const ctx = await playwright.request.newContext({ baseURL: BASE_URL });
    const token = await csrfToken(ctx);
    const replies = await parallel(200, () => credentialsPost(ctx, "code", { code: student.code, csrfToken: token }));
    for (const r of replies) expect(r.status()).toBeLessThan(500);
    const checked = await e2eDb().auditLog.count({ where: { actorId: student.id, action: "signin.code.failure" } });
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    // the code is live again (say, un-revoked by mistake): still locked for this window
    await e2eDb().signinCode.updateMany({ where: { userId: student.id }, data: { revokedAt: null } });
    const again = await credentialsPost(ctx, "code", { code: student.code, csrfToken: token });
    expect(again.status()).toBeLessThan(500);
    expect(signedIn(again)).toBe(false);
    await ctx.dispose();
  });

  test("40 concurrent reset requests for one account send at most 10 mails", async ({ page }) => {
    const { teacher } = await makeSchool(0);
    const form = await forgotForm(page, teacher.email!);
    const replies = await parallel(40, () => page.request.post("/auth/forgot", { multipart: form, maxRedirects: 0 }));
    for (const r of replies) expect(r.status()).toBeLessThan(500);
    await expect.poll(() => mailCount(teacher.email!), { timeout: 15_000 }).toBeGreaterThan(0);
    // mails are sent before the replies: nothing more arrives later
    expect(mailCount(teacher.email!)).toBeLessThanOrEqual(10);
  });
});

test("a reset link uses the configured address, never a forged Host or X-Forwarded-Host", async ({ page }) => {
  const { teacher } = await makeSchool(0);
  const form = await forgotForm(page, teacher.email!);
  const res = await page.request.post("/auth/forgot", {
    multipart: form,
    headers: { "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" },
    maxRedirects: 0,
  });
  expect(res.status()).toBeLessThan(500);
  const mail = await waitForMail(teacher.email!);
  expect(mail.body).not.toContain("evil.example");
  expect(mail.body).toContain(`${BASE_URL}/auth/reset?token=`);
});

test.describe("client address for throttling", () => {
  test("a forged X-Forwarded-For is ignored: failures count against the socket address, whatever the header says", async ({
    playwright,
  }) => {
    const { teacher } = await makeSchool(0);
    const ctx = await playwright.request.newContext({ baseURL: BASE_URL });
    const token = await csrfToken(ctx);
    for (let i = 1; i <= 3; i++) {
      const res = await credentialsPost(
        ctx,
        "password",
        { email: teacher.email!, password: "wrong", csrfToken: token },
        { "X-Forwarded-For": `203.0.113.${i}` },
      );
      expect(res.status()).toBeLessThan(500);
    }
    const forged = await e2eDb().signinThrottle.count({ where: { key: { startsWith: "ip:203.0.113." } } });
    expect(forged).toBe(0);
    await ctx.dispose();
  });

  test.describe("behind one trusted proxy (TRUSTED_PROXY_HOPS=1)", () => {
    test.setTimeout(180_000);
    const app = new AppInstance(Number(new URL(BASE_URL).port) + 71, undefined, { TRUSTED_PROXY_HOPS: "1" });
    test.beforeAll(async () => {
      test.setTimeout(180_000);
      await app.start();
    });
    test.afterAll(async () => app.stop());

    test("the address the proxy appended counts, not what the client put before it; a flooded school address still lets its students in", async ({
      playwright,
    }) => {
      const { students } = await makeSchool(1);
      const ctx = await playwright.request.newContext({ baseURL: app.url });
      const token = await csrfToken(ctx);
      // rotating the client-written part of the header does not escape the count
      for (let i = 1; i <= 3; i++) {
        const xff = `198.51.100.${i}, 192.0.2.40`;
        await credentialsPost(
          ctx,
          "password",
          { email: students[0]!.email!, password: "wrong", csrfToken: token },
          { "X-Forwarded-For": xff },
        );
      }
      const row = await e2eDb().signinThrottle.findUnique({ where: { key: "ip:192.0.2.40" } });
      expect(row?.failures).toBe(3);
      expect(await e2eDb().signinThrottle.count({ where: { key: { startsWith: "ip:198.51.100." } } })).toBe(0);
      // someone at the school floods its one NAT address: the others at that address still sign in
      const school = "192.0.2.41";
      await e2eDb().signinThrottle.upsert({
        where: { key: `ip:${school}` },
        create: { key: `ip:${school}`, failures: 100_000, windowStart: new Date() },
        update: { failures: 100_000, windowStart: new Date() },
      });
      const res = await credentialsPost(
        ctx,
        "code",
        { code: students[0]!.code, csrfToken: token },
        { "X-Forwarded-For": school },
      );
      expect(res.status()).toBeLessThan(500);
      expect(signedIn(res)).toBe(true);
      await ctx.dispose();
    });
  });
});
