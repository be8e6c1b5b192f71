import { cookies } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { readSessionCookie } from "@/platform/auth/session-token";
import { env } from "@/platform/env";
import {
  type DisplayLanguage,
  defaultLanguageFor,
  isDisplayLanguage,
  LANGUAGE_COOKIE,
  languageOfLocaleTag,
  localeTagOf,
} from "./languages";
import { loadMessages } from "./messages";

/**
 * The language of a request without one in the cookie: the signed-in role's
 * default (staff: plain Japanese; students and signed-out visitors: reading
 * aids). Sign-in sets the cookie (platform/i18n/signin.ts), so this is for a cookie
 * cleared since, or a session from before the cookie was set at sign-in.
 */
async function defaultLanguage(jar: Awaited<ReturnType<typeof cookies>>): Promise<DisplayLanguage> {
  const session = await readSessionCookie(jar.getAll(), env().AUTH_SECRET).catch(() => null);
  return defaultLanguageFor(session?.role);
}

/**
 * next-intl without locale routing: the display language comes from the
 * cookie, then a default, unless a caller asks for a locale explicitly
 * (getTranslations({ locale })).
 */
export default getRequestConfig(async ({ locale }) => {
  let lang: DisplayLanguage;
  if (locale) lang = languageOfLocaleTag(locale);
  else {
    const jar = await cookies();
    const chosen = jar.get(LANGUAGE_COOKIE)?.value;
    lang = isDisplayLanguage(chosen) ? chosen : await defaultLanguage(jar);
  }
  return { locale: localeTagOf(lang), messages: loadMessages(lang), timeZone: "Asia/Tokyo" };
});
