import { cookies } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LANGUAGE_COOKIE, languageOfLocaleTag, localeTagOf, toDisplayLanguage } from "./languages";
import { loadMessages } from "./messages";

/**
 * next-intl without locale routing: the display language comes from the
 * cookie, unless a caller asks for a locale explicitly (getTranslations({ locale })).
 */
export default getRequestConfig(async ({ locale }) => {
  const lang = locale ? languageOfLocaleTag(locale) : toDisplayLanguage((await cookies()).get(LANGUAGE_COOKIE)?.value);
  return { locale: localeTagOf(lang), messages: loadMessages(lang), timeZone: "Asia/Tokyo" };
});
