import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { e2eDb, makeSchool, TEST_PASSWORD } from "../e2e/db";
import { cookieHeader } from "../e2e/cookies";
import { confirmOpenDialog, signInAs } from "../e2e/helpers";
import { waitForMail } from "../e2e/mail";

/**
 * Accounts cannot be taken: a copied session cookie
 * stops working when the session should end, and no GET request changes
 * anything.
 */

type Cookies = Awaited<ReturnType<BrowserContext["cookies"]>>;

/** A fresh browser with a copy of someone's cookies (what a thief replays). */
async function replay(browser: Browser, cookies: Cookies): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext();
  await ctx.addCookies(cookies);
  return { ctx, page: await ctx.newPage() };
}

async function expectSignedOut(browser: Browser, cookies: Cookies, home: string) {
  const { ctx, page } = await replay(browser, cookies);
  await page.goto(home);
  await expect(page).toHaveURL(/\/signin/);
  await ctx.close();
}

test.describe("a copied session cookie stops working", () => {
  test.setTimeout(90_000);

  test("after sign-out", async ({ page, browser }) => {
    const { teacher } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    const copied = await page.context().cookies();
    await page.getByTestId("drawer-trigger").click();
    await page.getByTestId("sign-out").click();
    await expect(page).toHaveURL(/\/signin/);
    await expectSignedOut(browser, copied, "/dashboard/teacher/home");
  });

  test("after a password reset", async ({ page, browser }) => {
    const { teacher } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    const copied = await page.context().cookies();
    const other = await browser.newContext();
    const p = await other.newPage();
    await p.goto("/auth/forgot");
    await p.getByLabel("メールアドレス").fill(teacher.email!);
    await p.getByRole("button", { name: /リンクを/ }).click();
    await expect(p.getByTestId("forgot-sent")).toBeVisible();
    const link = new URL(
      /https?:\/\/\S+\/auth\/reset\?token=[A-Za-z0-9_-]{43}/.exec((await waitForMail(teacher.email!)).body)![0],
    );
    await p.goto(link.pathname + link.search);
    await p.locator('input[name="password"]').fill("brand-new-pass");
    await p.locator('input[name="confirm"]').fill("brand-new-pass");
    await p.getByRole("button", { name: /パスワードを/ }).click();
    await expect(p).toHaveURL("/signin?notice=passwordReset");
    await other.close();
    await expectSignedOut(browser, copied, "/dashboard/teacher/home");
  });

  test("after the teacher issues a new code: pages and the answer endpoint refuse the old session", async ({
    page,
    browser,
  }) => {
    const { teacher, students } = await makeSchool(1);
    const student = students[0]!;
    const kid = await browser.newContext();
    const kidPage = await kid.newPage();
    await kidPage.goto(`/auth/auth-with-code?code=${student.code}`);
    await expect(kidPage.getByTestId("code-confirm")).toBeVisible();
    const copied = await kid.cookies();
    await kid.close();

    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const row = page.locator(`tr[data-email="${student.email}"]`);
    await row.getByTestId("row-menu").click();
    await row.getByTestId("new-code").click();
    await confirmOpenDialog(page);
    await expect.poll(() => e2eDb().signinCode.count({ where: { userId: student.id } })).toBe(2);

    await expectSignedOut(browser, copied, "/dashboard/student/home");
    const { ctx, page: thief } = await replay(browser, copied);
    const res = await thief.request.post("/api/v1/answers", {
      data: {
        activityId: student.id,
        sceneId: student.id,
        answer: {},
        clientRevision: 1,
        idempotencyKey: "replayed-1",
        mode: "self",
      },
    });
    expect(res.status()).toBe(401);
    await ctx.close();
  });

  test("after the account is stopped, even once it is resumed", async ({ page, browser }) => {
    const { teacher, students } = await makeSchool(1);
    const student = students[0]!;
    const kid = await browser.newContext();
    const kidPage = await kid.newPage();
    await signInAs(kidPage, student.email!, TEST_PASSWORD);
    const copied = await kid.cookies();
    await kid.close();

    await signInAs(page, teacher.email!, TEST_PASSWORD);
    await page.goto("/dashboard/teacher/students");
    const row = page.locator(`tr[data-email="${student.email}"]`);
    for (const disabled of [true, false]) {
      await row.getByTestId("row-menu").click();
      await row.getByTestId("toggle-disabled").click();
      await expect
        .poll(async () => (await e2eDb().user.findUniqueOrThrow({ where: { id: student.id } })).disabled)
        .toBe(disabled);
    }
    await expectSignedOut(browser, copied, "/dashboard/student/home");
  });

  test("after two hours without use (teachers)", async ({ page, browser }) => {
    const { teacher } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    const copied = await page.context().cookies();
    await e2eDb()
      .$executeRaw`update users set last_active_at = now() - interval '121 minutes' where id = ${teacher.id}::uuid`;
    await expectSignedOut(browser, copied, "/dashboard/teacher/home");
  });
});

test("an event stream opened before sign-out is closed by the server within a heartbeat", async ({ browser }) => {
  test.setTimeout(120_000);
  const { students } = await makeSchool(1);
  const student = students[0]!;
  const kid = await browser.newContext();
  const kidPage = await kid.newPage();
  await signInAs(kidPage, student.email!, TEST_PASSWORD);
  const cookie = await cookieHeader(kid);
  // what a thief with the copied cookie keeps open
  const res = await fetch(new URL("/api/v1/live/school/events", kidPage.url()), { headers: { cookie } });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read(); // the stream is open

  await kidPage.getByTestId("drawer-trigger").click();
  await kidPage.getByTestId("sign-out").click();
  await expect(kidPage).toHaveURL(/\/signin/);
  await kid.close();

  // the server ends it at the next heartbeat (15 s); until then it may still send pings
  const deadline = Date.now() + 60_000;
  let ended = false;
  while (!ended && Date.now() < deadline) {
    const next = await Promise.race([
      reader.read(),
      new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
    ]);
    if (next === null) break;
    ended = next.done;
  }
  await reader.cancel().catch(() => undefined);
  expect(ended, "the stream of a signed-out session was still open after 60 s").toBe(true);
});

test.describe("GET changes nothing", () => {
  test("GET of the sign-in sheets issues no code", async ({ page }) => {
    const { teacher, students } = await makeSchool(1);
    const student = students[0]!;
    await e2eDb().signinCode.deleteMany({ where: { userId: student.id } });
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    const res = await page.request.get(`/api/students/sheets?ids=${student.id}`);
    expect(res.status()).toBeLessThan(500);
    expect(res.headers()["content-type"] ?? "").not.toContain("application/pdf");
    expect(await e2eDb().signinCode.count({ where: { userId: student.id } })).toBe(0);
  });

  test("GET /auth/ended and GET /api/auth/signout do not sign a live session out", async ({ page }) => {
    const { teacher } = await makeSchool(0);
    await signInAs(page, teacher.email!, TEST_PASSWORD);
    for (const path of ["/auth/ended", "/auth/ended?reason=userDisabled", "/api/auth/signout"]) {
      const res = await page.goto(path);
      expect(res?.status() ?? 0).toBeLessThan(500);
      await page.goto("/dashboard/teacher/home");
      await expect(page).toHaveURL("/dashboard/teacher/home");
    }
  });
});
