/**
 * The three display languages (docs/requirements.md §1, §9; docs/product-design.md "Display languages").
 * Ids are also the catalogue file names (messages/<id>.json) and the cookie /
 * localStorage values.
 */
export const DISPLAY_LANGUAGES = ["ja", "ja-ruby", "ja-kana"] as const;
export type DisplayLanguage = (typeof DISPLAY_LANGUAGES)[number];

/** Japanese with reading aids is the default and the fallback. */
export const DEFAULT_LANGUAGE: DisplayLanguage = "ja-ruby";

/** Cookie (read by the server) and localStorage key (mirrored by the client). */
export const LANGUAGE_COOKIE = "manabiya-lang";
export const LANGUAGE_STORAGE_KEY = "manabiya.displayLanguage";

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
