import "server-only";
import { AuthError } from "next-auth";
import { cookies, headers } from "next/headers";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from "@/platform/i18n/languages";
import { env } from "@/platform/env";
import { signIn } from "./config";
import { framedCookieAttributes, framedSessionCookieOptions, sessionCookieConfig } from "./cookies";
import { SESSION_HOURS } from "./device-sessions";
import type { Role } from "./roles";
import { issueTicket, VERIFIED_PROVIDER, type VerifiedMethod } from "./verified-signin";

/**
 * Signs `user` in on this request's response (the session cookie), as a person another part of the app has verified
 * (platform/auth/verified-signin.ts). With `frameAncestors` (an LTI launch: the portal's origins) the session's pages
 * may be framed by those origins (the token's `fa`, proxy.ts) and its cookie is the framed one
 * (`framedSessionCookieOptions`: SameSite=None, Partitioned). False when next-auth refused (the ticket was not taken).
 */
export async function signInVerified(
  user: { id: string; role: Role },
  method: VerifiedMethod,
  frameAncestors: string[] = [],
): Promise<boolean> {
  try {
    await signIn(VERIFIED_PROVIDER, { ticket: issueTicket(user, method, frameAncestors), redirect: false });
  } catch (error) {
    if (error instanceof AuthError) return false;
    throw error;
  }
  if (frameAncestors.length) await reissueFramed();
  return true;
}

/**
 * The session cookie next-auth has just set on this response, set again as the framed one (same name and token);
 * inside a frame (the launch's `Sec-Fetch-Dest`), the display language's too (platform/i18n/languages.ts).
 */
async function reissueFramed() {
  const jar = await cookies();
  const { name } = sessionCookieConfig(env().AUTH_URL);
  const token = jar.get(name)?.value;
  if (!token) return;
  jar.set(name, token, framedSessionCookieOptions(new Date(Date.now() + SESSION_HOURS * 60 * 60 * 1000)));
  const lang = jar.get(LANGUAGE_COOKIE)?.value;
  if (lang && (await headers()).get("sec-fetch-dest") === "iframe")
    jar.set(LANGUAGE_COOKIE, lang, { ...framedCookieAttributes, httpOnly: false, maxAge: LANGUAGE_COOKIE_MAX_AGE });
}
