import "server-only";
import { cookies } from "next/headers";
import { env } from "@/lib/env";
import { languageOfUser } from "./data";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from "./languages";
import { errorField, log } from "@/lib/ops/log";

/**
 * At sign-in the language follows the person: their own language, else their
 * role's default, becomes the cookie. So on a shared tablet the next child
 * never inherits the previous one's kana, and a teacher sees plain Japanese.
 * Runs inside the sign-in request (server action or the OAuth callback route),
 * where cookies may be written; a failure here never fails the sign-in.
 */
export async function applyLanguageAtSignin(userId: string): Promise<void> {
  try {
    const lang = await languageOfUser(userId);
    if (!lang) return;
    (await cookies()).set(LANGUAGE_COOKIE, lang, {
      path: "/",
      maxAge: LANGUAGE_COOKIE_MAX_AGE,
      sameSite: "lax",
      secure: env().AUTH_URL?.startsWith("https://") ?? false,
      httpOnly: false,
    });
  } catch (error) {
    log().warn({ event: "signin.language.failed", ...errorField(error) }, "display language at sign-in not applied");
  }
}
