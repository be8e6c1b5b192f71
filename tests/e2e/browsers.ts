import { type Browser, type BrowserContext, type Page, test } from "@playwright/test";
import { TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/**
 * `signedIn(browser, email, viewport?)`: a page signed in as that user, in a browser context of
 * its own (one person, one device). Every context opened by a test is closed after it: their
 * open event streams would load the server for the next tests. Call once at a file's top level.
 */
export function signedInBrowsers() {
  const opened: BrowserContext[] = [];
  test.afterEach(async () => {
    await Promise.all(opened.splice(0).map((c) => c.close()));
  });
  return async (browser: Browser, email: string, viewport = { width: 1280, height: 800 }): Promise<Page> => {
    const context = await browser.newContext({ viewport });
    opened.push(context);
    const page = await context.newPage();
    await signInAs(page, email, TEST_PASSWORD);
    return page;
  };
}
