import "server-only";
import { cookies } from "next/headers";
import { env } from "@/platform/env";
import { languageOfUser } from "./queries";
import { isDisplayLanguage, LANGUAGE_CHOICE_COOKIE, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE } from "./languages";
import { saveOwnLanguage } from "./commands";
import { errorField, log } from "@/platform/ops/log";

/**
 * At sign-in the language follows the person: their own language, else the
 * one chosen on this device's sign-in screen before signing in (which becomes
 * their own), else their role's default, becomes the cookie. So on a shared
 * tablet the next child never inherits the previous one's kana (only a choice
 * marked as made signed out counts, and sign-in clears the mark), a child who
 * chose ひらがな gets it, and a teacher sees plain Japanese.
 * Runs inside the sign-in request (server action or the OAuth callback route),
 * where cookies may be written; a failure here never fails the sign-in.
 */
export async function applyLanguageAtSignin(userId: string): Promise<void> {
  try {
    const jar = await cookies();
    const chosen = jar.get(LANGUAGE_CHOICE_COOKIE) ? jar.get(LANGUAGE_COOKIE)?.value : undefined;
    if (chosen !== undefined) jar.delete(LANGUAGE_CHOICE_COOKIE);
    const found = await languageOfUser(userId, isDisplayLanguage(chosen) ? chosen : null);
    if (!found) return;
    const { lang, own } = found;
    if (!own && lang === chosen) await saveOwnLanguage(userId, lang);
    jar.set(LANGUAGE_COOKIE, lang, {
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
