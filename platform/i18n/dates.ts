import type { DisplayLanguage } from "./languages";

/**
 * Dates by display language. Intl prints kanji (年月日, 曜日) in every Japanese
 * locale, so the kana language spells them itself (docs/toolchain.md); the reading-aids
 * language adds ruby markup to the kanji. Times are school time (Asia/Tokyo).
 */
const TIME_ZONE = "Asia/Tokyo";

function parts(date: Date) {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: TIME_ZONE,
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hourCycle: "h23",
  });
  const get = (type: string) => f.formatToParts(date).find((p) => p.type === type)?.value ?? "";
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour"), minute: get("minute") };
}

/** e.g. 2026年11月22日 / |年(ねん)… / 2026ねん11がつ22にち (rich-text markup for ja-ruby). */
export function formatDate(date: Date, lang: DisplayLanguage): string {
  const { year, month, day } = parts(date);
  if (lang === "ja-kana") return `${year}ねん${month}がつ${day}にち`;
  if (lang === "ja-ruby") return `${year}|年(ねん)${month}|月(がつ)${day}|日(にち)`;
  return `${year}年${month}月${day}日`;
}

/** e.g. 2026年11月22日 8:05 (24-hour clock). */
export function formatDateTime(date: Date, lang: DisplayLanguage): string {
  const { hour, minute } = parts(date);
  return `${formatDate(date, lang)} ${Number(hour)}:${minute}`;
}
