import { expect, test } from "@playwright/test";
import { DEMO_ACCOUNTS } from "../../prisma/seed/demo";
import { DEMO_MAIL_DOMAIN } from "@/platform/mail/demo-mailbox";
import { BASE_URL, E2E_PORT } from "./config";
import { expectAccessible } from "./helpers";
import { AppInstance } from "./instance";

/**
 * `npm start` with the demo school (scripts/start.ts sets MANABIYA_DEMO) and,
 * as on a developer's machine, no SMTP: a reset mail to a demo account is in
 * the server log and on /demo/mailbox, with a link that works.
 */
test.describe("the demo mailbox", () => {
  // one worker for the whole block: parallel workers would each start a server on the same port
  test.describe.configure({ mode: "default" });
  const demo = new AppInstance(E2E_PORT + 77, undefined, { MANABIYA_DEMO: "1", SMTP_URL: "" });
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await demo.start();
  });
  test.afterAll(() => demo.stop());

  test("every demo account is in the domain the mailbox shows", () => {
    for (const email of Object.values(DEMO_ACCOUNTS)) expect(email.endsWith(`@${DEMO_MAIL_DOMAIN}`)).toBe(true);
  });

  test("a password reset for a demo account: logged, then on the mailbox page with a link that opens the reset form", async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: demo.url });
    const page = await context.newPage();
    await page.goto("/demo/mailbox");
    const before = await page.getByTestId("demo-mail").count();
    await page.goto("/auth/forgot");
    await page.getByLabel("メールアドレス").fill(DEMO_ACCOUNTS.teacher);
    await page.getByRole("button", { name: /リンクを/ }).click();
    await expect(page.getByTestId("forgot-sent")).toBeVisible();

    await page.goto("/demo/mailbox");
    await expect(page.getByTestId("demo-mail")).toHaveCount(before + 1);
    const mail = page.getByTestId("demo-mail").first();
    await expect(mail).toHaveAttribute("data-to", DEMO_ACCOUNTS.teacher);
    await expect(mail).toContainText("パスワードの再設定");
    await expectAccessible(page);
    const link = mail.getByTestId("demo-mail-link");
    await expect(link).toHaveAttribute("href", new RegExp(`^${demo.url}/auth/reset\\?token=[A-Za-z0-9_-]{43}$`));
    await link.click();
    await expect(page).toHaveURL(/\/auth\/reset\?token=/);
    await expect(page.locator('input[name="password"]')).toBeVisible();
    await expect(page.getByTestId("reset-error")).toHaveCount(0);
    await context.close();

    // the log says a demo mail was kept, and where to read it: not the address, not the link
    await expect
      .poll(() =>
        demo.output.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.event === "mail.demo"),
      )
      .toContainEqual(expect.objectContaining({ level: "info", mailbox: "/demo/mailbox" }));
    const text = demo.output.join("\n");
    expect(text).not.toContain(DEMO_ACCOUNTS.teacher);
    expect(text).not.toContain("token=");
  });

  test("the page speaks the three display languages", async ({ browser }) => {
    const titles = {
      ja: "デモのメールボックス",
      "ja-ruby": "デモのメールボックス",
      "ja-kana": "デモの メールボックス",
    };
    for (const [lang, title] of Object.entries(titles)) {
      const context = await browser.newContext({ baseURL: demo.url });
      await context.addCookies([{ name: "manabiya-lang", value: lang, url: demo.url }]);
      const page = await context.newPage();
      const res = await page.goto("/demo/mailbox");
      expect(res?.status()).toBe(200);
      const heading = await page.locator("h1").evaluate((el) => {
        const clone = el.cloneNode(true) as HTMLElement;
        clone.querySelectorAll("rt, rp").forEach((n) => n.remove());
        return clone.textContent;
      });
      expect(heading).toBe(title);
      await context.close();
    }
  });
});

test("the e2e server runs the demo school, so its mailbox exists (the 404 outside demo mode: logs.spec.ts)", async () => {
  expect((await fetch(`${BASE_URL}/demo/mailbox`)).status).toBe(200);
});
