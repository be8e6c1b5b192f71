import { cookies } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { LANGUAGE_COOKIE, localeTagOf, toDisplayLanguage } from "./languages";
import { loadMessages } from "./messages";

/** next-intl without locale routing: the display language comes from the cookie. */
export default getRequestConfig(async () => {
  const lang = toDisplayLanguage((await cookies()).get(LANGUAGE_COOKIE)?.value);
  return { locale: localeTagOf(lang), messages: loadMessages(lang), timeZone: "Asia/Tokyo" };
});
