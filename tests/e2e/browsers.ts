import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, test } from "@playwright/test";
import { BASE_URL } from "./config";
import { TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/**
 * `device(browser, options?)`: a browser context of its own (one person, one device). Every
 * context opened by a test is closed after it: their open event streams would load the server
 * for the next tests. Call once at a file's top level.
 */
export function devices() {
  const opened: BrowserContext[] = [];
  test.afterEach(async () => {
    await Promise.all(opened.splice(0).map((c) => c.close()));
  });
  return async (browser: Browser, options?: BrowserContextOptions): Promise<BrowserContext> => {
    const context = await browser.newContext(options);
    opened.push(context);
    return context;
  };
}

type Lang = "ja" | "ja-ruby" | "ja-kana";

/**
 * `signedIn(browser, email, viewport?, { lang }?)`: a page signed in as that user on a device of
 * its own (see `devices`); `lang` is the display language chosen after signing in (signing in
 * sets the person's own), the page reloaded in it. Call once at a file's top level.
 */
export function signedInBrowsers() {
  const device = devices();
  return async (
    browser: Browser,
    email: string,
    viewport = { width: 1280, height: 800 },
    options: { lang?: Lang } = {},
  ): Promise<Page> => {
    const context = await device(browser, { viewport });
    const page = await context.newPage();
    await signInAs(page, email, TEST_PASSWORD);
    if (options.lang) {
      await context.addCookies([{ name: "manabiya-lang", value: options.lang, url: BASE_URL }]);
      await page.reload();
    }
    return page;
  };
}
