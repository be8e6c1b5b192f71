/**
 * The three display languages (docs/requirements.md §1, §9; docs/product-design.md "Display languages").
 * Ids are also the catalogue file names (messages/<id>.json) and the cookie /
 * localStorage values.
 */
export const DISPLAY_LANGUAGES = ["ja", "ja-ruby", "ja-kana"] as const;
export type DisplayLanguage = (typeof DISPLAY_LANGUAGES)[number];

/** Japanese with reading aids is the default and the fallback (signed out, and for students). */
export const DEFAULT_LANGUAGE: DisplayLanguage = "ja-ruby";

/**
 * Furigana is for students: staff without a language of their own get plain Japanese
 * (docs/adr/0002-language-at-sign-in.md).
 */
export function defaultLanguageFor(role: string | null | undefined): DisplayLanguage {
  return role === "teacher" || role === "manager" ? "ja" : DEFAULT_LANGUAGE;
}

/** Cookie (read by the server) and localStorage key (mirrored by the client). */
export const LANGUAGE_COOKIE = "manabiya-lang";
export const LANGUAGE_STORAGE_KEY = "manabiya.displayLanguage";
/** A year; readable by the page's script (the switcher), so not HttpOnly. */
export const LANGUAGE_COOKIE_MAX_AGE = 31_536_000;

/**
 * The language cookie inside the portal's cross-site iframe (an LTI launch, features/lti): `SameSite=None; Secure;
 * Partitioned` like the launched session's (a Lax cookie is neither set nor sent there), kept in the portal's
 * partition. In a window of our own it stays Lax.
 */
export const FRAMED_LANGUAGE_ATTRIBUTES = "samesite=none; secure; partitioned";

/** The `document.cookie` assignment of the language cookie, in a frame (`framed`) or a window of our own. */
export function languageCookieString(value: string, maxAge: number, framed: boolean): string {
  return `${LANGUAGE_COOKIE}=${value}; path=/; max-age=${maxAge}; ${framed ? FRAMED_LANGUAGE_ATTRIBUTES : "samesite=lax"}`;
}
/**
 * Set with the cookie by the switcher of a signed-out page: the language was chosen on this
 * device before sign-in, so it wins over the role's default at the next sign-in (platform/i18n/signin.ts).
 * A day: a choice left on a sign-in screen is not handed to whoever signs in next week.
 */
export const LANGUAGE_CHOICE_COOKIE = "manabiya-lang-chosen";
export const LANGUAGE_CHOICE_MAX_AGE = 86_400;

/** BCP 47 tags next-intl and Intl see; all format as Japanese. */
const LOCALE_TAGS: Record<DisplayLanguage, string> = {
  ja: "ja",
  "ja-ruby": "ja-x-ruby",
  "ja-kana": "ja-Hrkt",
};

export function isDisplayLanguage(value: unknown): value is DisplayLanguage {
  return typeof value === "string" && (DISPLAY_LANGUAGES as readonly string[]).includes(value);
}

/** Any value that is not one of the three falls back to the default. */
export function toDisplayLanguage(value: unknown): DisplayLanguage {
  return isDisplayLanguage(value) ? value : DEFAULT_LANGUAGE;
}

export function localeTagOf(lang: DisplayLanguage): string {
  return LOCALE_TAGS[lang];
}

export function languageOfLocaleTag(tag: string): DisplayLanguage {
  const found = DISPLAY_LANGUAGES.find((l) => LOCALE_TAGS[l] === tag);
  return found ?? DEFAULT_LANGUAGE;
}
