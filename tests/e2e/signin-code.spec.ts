import { expect, test } from "@playwright/test";
import { baseText, expectAccessible, signIn } from "./helpers";
import { BASE_URL } from "./config";
import { e2eDb, makeSchool, TEST_PASSWORD } from "./db";

test.describe("QR code sign-in", () => {
  test("a valid code signs the student in and asks 'is this you?'; yes goes home", async ({ page }) => {
    const { students, school } = await makeSchool(1);
    const student = students[0]!;
    await page.goto(`/auth/auth-with-code?code=${student.code}`);
    await expect(page.getByTestId("code-confirm")).toBeVisible();
    expect(await baseText(page.getByTestId("code-name"))).toBe("試験 花子1");
    expect(await baseText(page.getByTestId("code-school"))).toBe(school.name);
    await expect(page).toHaveURL("/auth/auth-with-code"); // the code is not left in history
    await expectAccessible(page);
    await page.getByRole("button", { name: "はい、わたしです" }).click();
    await expect(page).toHaveURL("/dashboard/student/home");
    const audit = await e2eDb().auditLog.findFirst({ where: { actorId: student.id, action: "signin.code.success" } });
    expect(audit).not.toBeNull();
    expect(JSON.stringify({ ...audit, id: String(audit?.id) })).not.toContain(student.code);
    const row = await e2eDb().signinCode.findFirst({ where: { userId: student.id }, select: { lastUsedAt: true } });
    expect(row?.lastUsedAt).not.toBeNull();
  });

  test("'no' signs out again; the same card still works (codes are reusable)", async ({ page, browser }) => {
    const { students } = await makeSchool(1);
    const code = students[0]!.code;
    await page.goto(`/auth/auth-with-code?code=${code}`);
    await page.getByRole("button", { name: "いいえ、ちがいます" }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await page.goto("/dashboard/student/home");
    await expect(page).toHaveURL(/\/signin\?from=/);

    const other = await browser.newContext();
    const page2 = await other.newPage();
    await page2.goto(`/auth/auth-with-code?code=${code}`);
    await expect(page2.getByTestId("code-confirm")).toBeVisible();
    await other.close();
  });

  test("missing, malformed, unknown and revoked codes tell the child the card does not work and to ask the teacher for a new one, in each language", async ({
    page,
    context,
  }) => {
    const said: Record<string, string> = {
      ja: "先生に新しいカードをもらってください",
      "ja-ruby": "先生に新しいカードをもらってください",
      "ja-kana": "せんせいに あたらしい カードを もらってください",
    };
    for (const [lang, advice] of Object.entries(said)) {
      await context.addCookies([{ name: "manabiya-lang", value: lang, url: BASE_URL }]);
      for (const url of [
        "/auth/auth-with-code",
        "/auth/auth-with-code?code=abc",
        "/auth/auth-with-code?code=%3Cscript%3E",
      ]) {
        await page.goto(url);
        await expect(page.getByTestId("code-invalid")).toBeVisible();
        const text = await baseText(page.getByTestId("code-invalid"));
        expect(text).toContain(advice);
        expect(text).not.toContain("パラメータ");
      }
    }
    await page.goto(`/auth/auth-with-code?code=${"A".repeat(22)}`);
    await expect(page.getByTestId("code-error")).toHaveAttribute("data-code", "invalidCode");
    expect(await baseText(page.getByTestId("code-error"))).toContain("せんせいに あたらしい カードを もらってください");

    const { students } = await makeSchool(1);
    await e2eDb().signinCode.updateMany({ where: { userId: students[0]!.id }, data: { revokedAt: new Date() } });
    await page.goto(`/auth/auth-with-code?code=${students[0]!.code}`);
    await expect(page.getByTestId("code-error")).toHaveAttribute("data-code", "invalidCode");
    await page.goto("/dashboard/student/home");
    await expect(page).toHaveURL(/\/signin\?from=/);
  });
});

test.describe("throttling and disabled accounts", () => {
  test("repeated failures lock one account while another signs in from the same IP", async ({ page }) => {
    const { students } = await makeSchool(2);
    const [victim, classmate] = students as [(typeof students)[0], (typeof students)[0]];
    await page.goto("/signin");
    for (let i = 0; i < 10; i++) {
      await signIn(page, victim.email!, `wrong-${i}`);
      await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "wrongPassword");
    }
    await signIn(page, victim.email!, TEST_PASSWORD); // even the right password waits now
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "tooManyRequests");
    expect(await baseText(page.getByTestId("signin-error"))).toMatch(/1[45]分後/);

    await signIn(page, classmate.email!, TEST_PASSWORD);
    await expect(page).toHaveURL("/dashboard/student/home");
  });

  test("a disabled account cannot sign in, and is signed out on its next request", async ({ page }) => {
    const { students } = await makeSchool(1);
    const student = students[0]!;
    await page.goto("/signin");
    await signIn(page, student.email!, TEST_PASSWORD);
    await expect(page).toHaveURL("/dashboard/student/home");
    await e2eDb().user.update({ where: { id: student.id }, data: { disabled: true } });
    await page.reload();
    await expect(page).toHaveURL("/signin?error=userDisabled");
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "userDisabled");
    await signIn(page, student.email!, TEST_PASSWORD);
    await expect(page.getByTestId("signin-error")).toHaveAttribute("data-code", "userDisabled");
    await page.goto(`/auth/auth-with-code?code=${student.code}`);
    await expect(page.getByTestId("code-error")).toHaveAttribute("data-code", "userDisabled");
  });
});
