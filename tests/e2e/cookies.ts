import type { Browser, BrowserContext } from "@playwright/test";
import { TEST_PASSWORD } from "./db";
import { signInAs } from "./helpers";

/*
 * A real sign-in's session as a Cookie header, for plain-HTTP requests as that user (a session
 * cookie made without signing in: sessionCookieFor in ./db).
 */

/** The Cookie header of a context's cookies: its session, for plain-HTTP requests as its user. */
export async function cookieHeader(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
}

/** `email` signed in (TEST_PASSWORD) in a context of its own: that session's Cookie header. */
export async function cookieOf(browser: Browser, email: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, email, TEST_PASSWORD);
  const header = await cookieHeader(context);
  await context.close();
  return header;
}
