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

/** A day of the week in brackets from `tokens[j]` on: （水）, (火). */
export function bracketedDay(tokens: Token[], j: number): boolean {
  const [open, day, close] = [tokens[j], tokens[j + 1], tokens[j + 2]];
  return (
    /^[（(]$/.test(open?.surface ?? "") &&
    !!day &&
    day.surface in WEEKDAYS &&
    /^[）)]$/.test(close?.surface ?? "") &&
    joined(open, day) &&
    joined(day, close)
  );
}

/** In brackets after a date: 1日（水）, 十二月一日(火). */
function afterDate(tokens: Token[], i: number): boolean {
  const date = tokens[i - 2];
  return bracketedDay(tokens, i - 1) && joined(date, tokens[i - 1]) && date.surface.endsWith("日");
}

/** Before 曜日 written in kana, as the first grade writes it before 曜 is learned: 月よう日, 木ようび. */
export function beforeDayInKana(tokens: Token[], i: number): boolean {
  const [you, day] = [tokens[i + 1], tokens[i + 2]];
  return you?.surface === "よう" && joined(tokens[i], you) && !!day && joined(you, day) && /^(日|び)/.test(day.surface);
}

/**
 * A day of the week written as one kanji, read as the day (げつ, か, すい, もく, きん, ど, にち) in a list of days, in
 * brackets after a date or before よう日; elsewhere it is the word (月 つき, 水 みず, 金 かね or きん) and this gives null.
 */
export function weekday(tokens: Token[], i: number): Token | null {
  const t = tokens[i]!;
  if (!(t.surface in WEEKDAYS) || !(afterDate(tokens, i) || inDayList(tokens, i) || beforeDayInKana(tokens, i)))
    return null;
  return { ...t, reading: WEEKDAYS[t.surface]!, pos: "名詞,一般" };
}
