import { joined, LIST_SEPARATOR, type Token } from "./furigana-token";

const WEEKDAYS: Record<string, string> = {
  月: "げつ",
  火: "か",
  水: "すい",
  木: "もく",
  金: "きん",
  土: "ど",
  日: "にち",
};
/** A day: one kanji of WEEKDAYS, or a day's word (水曜, 金曜日). */
const dayWord = (t: Token) => t.surface in WEEKDAYS || /^[月火水木金土日]曜日?$/.test(t.surface);

/** The words of the list `tokens[i]` stands in (itself alone when none), and what joins them. */
function listAround(tokens: Token[], i: number): { members: Token[]; separators: string[] } {
  const members = [tokens[i]!];
  const separators: string[] = [];
  const link = (a: number, sep: number, b: number) =>
    LIST_SEPARATOR.test(tokens[sep]?.surface ?? "") && joined(tokens[a], tokens[sep]) && joined(tokens[sep], tokens[b]);
  for (let j = i; j >= 2 && link(j - 2, j - 1, j); j -= 2) {
    members.unshift(tokens[j - 2]!);
    separators.push(tokens[j - 1]!.surface);
  }
  for (let j = i; j + 2 < tokens.length && link(j, j + 1, j + 2); j += 2) {
    members.push(tokens[j + 2]!);
    separators.push(tokens[j + 1]!.surface);
  }
  return { members, separators };
}

/**
 * A list of days of the week: every word of it a day, and it says so: three days or more (月・水・金), a day's word
 * in it (月・水曜日), a range (月〜金) or the weekend (土・日). Two kanji alone stay words: 火・水 is fire and water,
 * 水・土 water and soil, 日・月 the sun and the moon.
 */
function inDayList(tokens: Token[], i: number): boolean {
  const { members, separators } = listAround(tokens, i);
  if (members.length < 2 || !members.every(dayWord)) return false;
  return (
    members.length >= 3 ||
    members.some((m) => m.surface.includes("曜")) ||
    separators.some((s) => s !== "・" && s !== "、") ||
    members.map((m) => m.surface).join() === "土,日"
  );
}

/** In brackets after a date: 1日（水）, 十二月一日(火). */
function afterDate(tokens: Token[], i: number): boolean {
  const [b2, b1, a1] = [tokens[i - 2], tokens[i - 1], tokens[i + 1]];
  return (
    /^[（(]$/.test(b1?.surface ?? "") &&
    /^[）)]$/.test(a1?.surface ?? "") &&
    joined(b2, b1) &&
    joined(b1, tokens[i]) &&
    b2.surface.endsWith("日")
  );
}

/**
 * A day of the week written as one kanji, read as the day (げつ, か, すい, もく, きん, ど, にち) in a list of days or
 * in brackets after a date; elsewhere it is the word (月 つき, 水 みず, 金 かね or きん) and this gives null.
 */
export function weekday(tokens: Token[], i: number): Token | null {
  const t = tokens[i]!;
  if (!(t.surface in WEEKDAYS) || !(afterDate(tokens, i) || inDayList(tokens, i))) return null;
  return { ...t, reading: WEEKDAYS[t.surface]!, pos: "名詞,一般" };
}
