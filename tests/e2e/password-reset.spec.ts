import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { e2eDb, makeSchool } from "./db";
import { mailCount, waitForMail } from "./mail";

test.describe("forgotten password (teachers and managers)", () => {
  test("a reset link by e-mail sets a new password once; reusing it fails", async ({ page }) => {
    const { teacher } = await makeSchool(0);
    await page.goto("/signin");
    await page.getByTestId("forgot-link").click();
    await expect(page).toHaveURL("/auth/forgot");
    await page.getByLabel("メールアドレス").fill(teacher.email!);
    await page.getByRole("button", { name: /リンクを/ }).click();
    await expect(page.getByTestId("forgot-sent")).toBeVisible();

    const mail = await waitForMail(teacher.email!);
    const link = /https?:\/\/\S+\/auth\/reset\?token=[A-Za-z0-9_-]{43}/.exec(mail.body)?.[0];
    expect(link).toBeTruthy();
    const stored = await e2eDb().passwordResetToken.findFirstOrThrow({
      where: { userId: teacher.id },
      select: { tokenHash: true },
    });
    expect(link).not.toContain(stored.tokenHash); // only the hash is stored

    const resetPath = new URL(link!).pathname + new URL(link!).search;
    await page.goto(resetPath);
    await page.locator('input[name="password"]').fill("brand-new-pass");
    await page.locator('input[name="confirm"]').fill("different-pass");
    await page.getByRole("button", { name: /パスワードを/ }).click();
    await expect(page.getByTestId("reset-error")).toHaveAttribute("data-code", "mismatch");

    // the form is cleared after a refused submit: both fields again
    await page.locator('input[name="password"]').fill("brand-new-pass");
    await page.locator('input[name="confirm"]').fill("brand-new-pass");
    await page.getByRole("button", { name: /パスワードを/ }).click();
    await expect(page).toHaveURL("/signin?notice=passwordReset");
    await expect(page.getByTestId("notification")).toBeVisible();
    // notification timing (docs/requirements.md: closes itself after 5000 ms), on a controlled clock
    await page.clock.install();
    await page.reload();
    const note = page.getByTestId("notification");
    await expect(note).toBeVisible();
    // from here time moves only when the test says so (the pause lands just after the
    // notification appeared, by the page's own clock): still there 2 s on, gone 5 s on
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    await expect(note).toBeVisible();
    await expect(note).toHaveAttribute("role", "status");
    await page.clock.runFor(2000);
    await expect(note).toBeVisible();
    await page.clock.runFor(3000);
    await expect(note).toHaveCount(0);

    await signIn(page, teacher.email!, "brand-new-pass");
    await expect(page).toHaveURL("/dashboard/teacher/home");

    const other = await page.context().browser()!.newContext();
    const page2 = await other.newPage();
    await page2.goto(resetPath);
    await page2.locator('input[name="password"]').fill("another-pass-1");
    await page2.locator('input[name="confirm"]').fill("another-pass-1");
    await page2.getByRole("button", { name: /パスワードを/ }).click();
    await expect(page2.getByTestId("reset-error")).toHaveAttribute("data-code", "expiredActionCode");
    await other.close();
  });

  test("an expired link is refused; students and unknown addresses get no mail but the same answer", async ({
    page,
  }) => {
    const { teacher, students } = await makeSchool(1);
    await page.goto("/auth/forgot");
    await page.getByLabel("メールアドレス").fill(teacher.email!);
    await page.getByRole("button", { name: /リンクを/ }).click();
    const mail = await waitForMail(teacher.email!);
    const link = new URL(/https?:\/\/\S+\/auth\/reset\?token=[A-Za-z0-9_-]{43}/.exec(mail.body)![0]);
    await e2eDb().passwordResetToken.updateMany({
      where: { userId: teacher.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await page.goto(link.pathname + link.search);
    await page.locator('input[name="password"]').fill("brand-new-pass");
    await page.locator('input[name="confirm"]').fill("brand-new-pass");
    await page.getByRole("button", { name: /パスワードを/ }).click();
    await expect(page.getByTestId("reset-error")).toHaveAttribute("data-code", "expiredActionCode");

    for (const email of [students[0]!.email!, `nobody-${Date.now()}@test.example`]) {
      await page.goto("/auth/forgot");
      await page.getByLabel("メールアドレス").fill(email);
      await page.getByRole("button", { name: /リンクを/ }).click();
      await expect(page.getByTestId("forgot-sent")).toBeVisible();
    }
    await page.waitForTimeout(1000);
    expect(mailCount(students[0]!.email!)).toBe(0);
  });
});
