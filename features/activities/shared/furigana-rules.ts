import { hasKanji, isKana, toHiragana } from "./furigana-align";
import { joined, type Token } from "./furigana-token";
import { wordRule } from "./furigana-word-rules";
import { bracketedDay, weekday } from "./furigana-weekday-rules";

/**
 * Readings the dictionary gets wrong by itself, fixed from the words around them: numbers in kanji and
 * their counters (六百 ろっぴゃく, 一本 いっぽん, 三本 さんぼん, 一人 ひとり, 八日 ようか, 一日中 いちにちじゅう,
 * 二十歳 はたち, 何人 なんにん, 十七音 じゅうしちおん, and a counter of the dictionary: 一隻 いっせき), a haiku's 五七五
 * ごしちご (syllables), a note's value 四分音符 しぶ (noteValue), numbers in digits and their counters (digitCount),
 * dates and days of the week (afterMonth, furigana-weekday-rules.ts), 何 before a d, n or t sound or a kanji noun
 * (なんの, 何世紀), and words read from their neighbours (furigana-word-rules.ts).
 * Pure: tokens in, tokens out (a number and its counter become one token, read by rule; a number in digits keeps its
 * tokens when the ruby goes over the counter alone).
 */

const DIGIT: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const UNIT: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const BIG: Record<string, number> = { 万: 10_000, 億: 100_000_000 };
const NUMERAL = /^[〇零一二三四五六七八九十百千万億]+$/;
const ONES = ["", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"];

/** The value of a number written in kanji (三百六十五, 二〇二六), or null. */
export function numberValue(s: string): number | null {
  if (!NUMERAL.test(s)) return null;
  // digits side by side are a number only with a 〇 (二〇二六); 四六時中 is a word
  if (/^[〇零一二三四五六七八九]{2,}$/.test(s))
    return s.includes("〇") ? Number([...s].map((c) => DIGIT[c]).join("")) : null;
  if (s[0]! in BIG) return null; // 万一 is a word
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  for (const c of s) {
    if (c in DIGIT) {
      if (digit !== null) return null;
      digit = DIGIT[c]!;
    } else if (c in UNIT) {
      section += (digit ?? 1) * UNIT[c]!;
      digit = null;
    } else {
      total += (section + (digit ?? 0) || 1) * BIG[c]!;
      section = 0;
      digit = null;
    }
  }
  return total + section + (digit ?? 0);
}

/** 百 and 千 after 3, 6, 8 (さんびゃく, ろっぴゃく, はっぴゃく, さんぜん, はっせん). */
function hundreds(n: number, unit: 100 | 1000): string {
  const base = unit === 100 ? "ひゃく" : "せん";
  if (n === 1) return base;
  if (unit === 100)
    return ({ 3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく" } as Record<number, string>)[n] ?? ONES[n] + base;
  return ({ 3: "さんぜん", 8: "はっせん" } as Record<number, string>)[n] ?? ONES[n] + base;
}

function below10000(n: number): string {
  const th = Math.floor(n / 1000);
  const h = Math.floor((n % 1000) / 100);
  const t = Math.floor((n % 100) / 10);
  const o = n % 10;
  return (
    (th ? hundreds(th, 1000) : "") +
    (h ? hundreds(h, 100) : "") +
    (t ? (t === 1 ? "" : ONES[t]) + "じゅう" : "") +
    ONES[o]
  );
}

/** The reading of a number (0 ≤ n < 10¹²): 365 さんびゃくろくじゅうご, 10000 いちまん. */
export function numberReading(n: number): string {
  if (n === 0) return "ぜろ";
  const oku = Math.floor(n / 100_000_000);
  const man = Math.floor((n % 100_000_000) / 10_000);
  const rest = n % 10_000;
  return (oku ? below10000(oku) + "おく" : "") + (man ? below10000(man) + "まん" : "") + below10000(rest);
}

/** A counter read by rule (a counter in k, s, t or h doubles the sound before it after 1, 8, 10; in k and h after 6 and 100 too, h turning p). */
interface Counter {
  reading: string;
  /** the sound after 3 and 何: b (さんぼん) or p (さんぷん); none: unchanged */
  afterThree?: "b" | "p";
  /** 4 read よ (よにん, よじ), 7 しち, 9 く */
  yo?: boolean;
  shichi?: boolean;
  ku?: boolean;
  /** whole readings for some numbers (一人 ひとり) */
  own?: Record<number, string>;
  /** a native word (組 くみ): the number's sound never doubles before it (一組 いちくみ) */
  plain?: boolean;
}
const DAYS: Record<number, string> = {
  2: "ふつか",
  3: "みっか",
  4: "よっか",
  5: "いつか",
  6: "むいか",
  7: "なのか",
  8: "ようか",
  9: "ここのか",
  10: "とおか",
  14: "じゅうよっか",
  20: "はつか",
  24: "にじゅうよっか",
};
export const COUNTERS: Record<string, Counter> = {
  人: { reading: "にん", yo: true, own: { 1: "ひとり", 2: "ふたり" } },
  日: { reading: "にち", own: DAYS },
  本: { reading: "ほん", afterThree: "b" },
  杯: { reading: "はい", afterThree: "b" },
  匹: { reading: "ひき", afterThree: "b" },
  分: { reading: "ふん", afterThree: "p" },
  発: { reading: "はつ", afterThree: "p" },
  泊: { reading: "はく", afterThree: "p" },
  歩: { reading: "ほ", afterThree: "p" },
  百: { reading: "ひゃく", afterThree: "b" },
  千: { reading: "せん", afterThree: "b" },
  回: { reading: "かい" },
  階: { reading: "かい", afterThree: "b" },
  個: { reading: "こ" },
  冊: { reading: "さつ" },
  歳: { reading: "さい", own: { 20: "はたち" } },
  才: { reading: "さい", own: { 20: "はたち" } },
  点: { reading: "てん" },
  頭: { reading: "とう" },
  通: { reading: "つう" },
  件: { reading: "けん" },
  軒: { reading: "けん", afterThree: "b" },
  曲: { reading: "きょく" },
  着: { reading: "ちゃく" },
  足: { reading: "そく", afterThree: "b" },
  週: { reading: "しゅう" },
  晩: { reading: "ばん", own: { 1: "ひとばん" } },
  週間: { reading: "しゅうかん" },
  か月: { reading: "かげつ" },
  ヶ月: { reading: "かげつ" },
  カ月: { reading: "かげつ" },
  ヵ月: { reading: "かげつ" },
  ヶ国: { reading: "かこく" },
  か国: { reading: "かこく" },
  カ国: { reading: "かこく" },
  国: { reading: "こく" },
  校: { reading: "こう" },
  組: { reading: "くみ", plain: true },
  通り: { reading: "とおり", plain: true, own: { 1: "ひととおり", 2: "ふたとおり" } },
  重: { reading: "じゅう", own: { 1: "ひとえ", 8: "やえ" } },
  年: { reading: "ねん", yo: true },
  年間: { reading: "ねんかん", yo: true },
  時: { reading: "じ", yo: true, shichi: true, ku: true },
  時間: { reading: "じかん", yo: true, shichi: true, ku: true },
  月: { reading: "がつ", shichi: true, ku: true, own: { 4: "しがつ" } },
  枚: { reading: "まい" },
  台: { reading: "だい" },
  番: { reading: "ばん" },
  度: { reading: "ど" },
  円: { reading: "えん", yo: true },
  秒: { reading: "びょう" },
  位: { reading: "い" },
  名: { reading: "めい" },
  倍: { reading: "ばい" },
  問: { reading: "もん" },
  音: { reading: "おん", shichi: true },
  号: { reading: "ごう" },
  章: { reading: "しょう" },
  頁: { reading: "ぺーじ" },
  区: { reading: "く" },
  学期: { reading: "がっき" },
  学年: { reading: "がくねん" },
};

/** The kana with its voiced mark (か → が, そ → ぞ, ほ → ぼ): the next code point in every voiceable row. */
const voiced = (kana: string) => String.fromCharCode(kana.charCodeAt(0) + 1);
/** A は-row kana with its half-voiced mark (は → ぱ, ほ → ぽ): two code points on. */
const halfVoiced = (kana: string) => String.fromCharCode(kana.charCodeAt(0) + 2);
/** The counter's first sound after 3 or 何: voiced (さんぼん, さんがい), half-voiced (さんぷん) or as it is. */
const afterThree = (counter: Counter, first: string) =>
  counter.afterThree === "b" ? voiced(first) : counter.afterThree === "p" ? halfVoiced(first) : first;

/** A number (or 何, as -1) with its counter: the number's last sound and the counter's first join as spoken. */
export function countReading(n: number, surface: string): string | null {
  const counter = COUNTERS[surface];
  return counter ? readCount(n, counter) : null;
}

function readCount(n: number, counter: Counter): string {
  if (counter.own?.[n]) return counter.own[n]!;
  const first = counter.reading[0]!;
  const rest = counter.reading.slice(1);
  if (n === -1) return "なん" + afterThree(counter, first) + rest;
  let head = numberReading(n);
  const last = n % 10 === 0 ? (n % 100 === 0 ? (n % 1000 === 0 ? 0 : 100) : 10) : n % 10;
  if (last === 4 && counter.yo) head = head.slice(0, -2) + "よ";
  if (last === 7 && counter.shichi) head = head.slice(0, -2) + "しち";
  if (last === 9 && counter.ku) head = head.slice(0, -3) + "く";
  const geminate = (
    { か: [1, 6, 8, 10, 100], さ: [1, 8, 10], た: [1, 8, 10], は: [1, 6, 8, 10, 100] } as Record<string, number[]>
  )[rowOf(first)];
  if (geminate?.includes(last) && !counter.plain) {
    head = head.slice(0, -1) + "っ"; // いち → いっ, ろく → ろっ, じゅう → じゅっ, ひゃく → ひゃっ
    return head + (rowOf(first) === "は" ? halfVoiced(first) : first) + rest;
  }
  // after 3 and a number ending in ん but 4 (千 せん, 万 まん): さんぼん, せんぼん, いちまんぼん; よんほん
  if ((last === 3 || (head.endsWith("ん") && last !== 4)) && counter.afterThree)
    return head + afterThree(counter, first) + rest;
  if (last === 4 && counter.afterThree === "p") return head + halfVoiced(first) + rest;
  return head + counter.reading;
}

const ROWS: Record<string, string> = {
  か: "かきくけこ",
  さ: "さしすせそ",
  た: "たちつてと",
  は: "はひふへほ",
};
const rowOf = (c: string) => Object.keys(ROWS).find((r) => ROWS[r]!.includes(c)) ?? "";

const isNumeral = (t: Token) => NUMERAL.test(t.surface) && (t.pos?.startsWith("名詞,数") ?? true);
/** A number of the rules holds a digit or 十, 百, 千 (万 alone is not one: 万人 is everyone(), 万一 a word). */
const HAS_DIGIT = /[〇零一二三四五六七八九十百千]/;

/** Adjacent numeral tokens (六|百) as one number token. */
function numberRun(tokens: Token[], i: number): { surface: string; next: number } {
  let surface = tokens[i]!.surface;
  let j = i + 1;
  while (j < tokens.length && isNumeral(tokens[j]!) && joined(tokens[j - 1]!, tokens[j]!))
    surface += tokens[j++]!.surface;
  return { surface, next: j };
}

/** A counter found after a number: what it covers, the index of the token after it, and how it is read. */
type CounterAt = { surface: string; next: number; counter: Counter };

/**
 * Counters written as one token or two (週|間, ヶ|月); a counter of the dictionary that the list above lacks (隻,
 * 回戦, 騎) with the dictionary's reading, its first sound doubling after 1, 6, 8, 10, 100 as above (一隻 いっせき).
 */
function counterAt(tokens: Token[], j: number): CounterAt | null {
  const a = tokens[j];
  if (!a) return null;
  const b = tokens[j + 1];
  const two = b && joined(a, b) ? COUNTERS[a.surface + b.surface] : undefined;
  if (two) return throughout(tokens, { surface: a.surface + b!.surface, next: j + 2, counter: two });
  const one = COUNTERS[a.surface] ?? leadingCounter(a);
  if (one) return throughout(tokens, { surface: a.surface, next: j + 1, counter: one });
  if (a.pos?.startsWith("名詞,接尾,助数詞") && a.reading && isKana(a.reading) && hasKanji(a.surface))
    return { surface: a.surface, next: j + 1, counter: { reading: toHiragana(a.reading) } };
  return null;
}

/** The counter with more after it: its reading with the tail, and each number's own reading with the tail too. */
const withTail = (counter: Counter, reading: string, tail: string): Counter => ({
  ...counter,
  reading,
  own: counter.own && Object.fromEntries(Object.entries(counter.own).map(([n, whole]) => [n, whole + tail])),
});

/** Counters with more after them that the dictionary reads otherwise: 日中 にっちゅう, 人用 じんよう. */
const COUNTER_WORDS: Record<string, string> = { 日中: "にちじゅう", 人用: "にんよう" };

/**
 * A counter of the list with more after it in one word of the dictionary (年生, 人前, 時半, 日間, 人組; 日中 and 人用
 * after a number, which the dictionary reads にっちゅう and じんよう): read as that counter with the rest as the
 * dictionary reads it, so the number's sound changes as before the counter alone (4年生 よねんせい, 4日間 よっかかん,
 * 2人組 ふたりぐみ, 1日中 いちにちじゅう, 1人用 ひとりよう). 人前 keeps にん after 1 and 2 (一人前 いちにんまえ).
 */
function leadingCounter(a: Token): Counter | null {
  const counter = COUNTERS[a.surface[0]!];
  if (!counter || a.surface.length < 2) return null;
  const reading = COUNTER_WORDS[a.surface] ?? toHiragana(a.reading ?? "");
  if (!(a.pos?.startsWith("名詞,接尾,助数詞") || COUNTER_WORDS[a.surface]) || !reading.startsWith(counter.reading))
    return null;
  const tail = reading.slice(counter.reading.length);
  return a.surface === "人前" ? { ...counter, reading, own: undefined } : withTail(counter, reading, tail);
}

/** A counter of time with 中 after it: the whole time, じゅう (1年中 いちねんじゅう, 一晩中 ひとばんじゅう). */
function throughout(tokens: Token[], found: CounterAt): CounterAt {
  const after = tokens[found.next];
  if (
    after?.surface !== "中" ||
    !joined(tokens[found.next - 1], after) ||
    !/^(日|年|晩|週間|年間)$/.test(found.surface)
  )
    return found;
  const reading = found.counter.reading + "じゅう";
  return { surface: found.surface + "中", next: found.next + 1, counter: withTail(found.counter, reading, "じゅう") };
}

/** 千 is read せん alone and いっせん when its 一 is written (一千円 いっせんえん, 一千万人 いっせんまんにん). */
const oneWritten = (surface: string, reading: string) =>
  surface.startsWith("一千") && reading.startsWith("せん") ? "いっ" + reading : reading;

/**
 * 万人 with no number or kanji before it: everyone, ばんにん (the analyser cuts it 万|人, read まん|にん); 三万人 is a
 * count, and so is 万人 in 万人に一人.
 */
function everyone(tokens: Token[], i: number): Token | null {
  const [before, t, after] = [tokens[i - 1], tokens[i]!, tokens[i + 1]];
  if (t.surface !== "万" || after?.surface !== "人" || !joined(t, after)) return null;
  if (before && joined(before, t) && /[\p{Script=Han}0-9０-９]$/u.test(before.surface)) return null;
  // 万人に一人: one in ten thousand, まんにん
  if (tokens[i + 2]?.surface === "に" && /^(一|1|１)$/.test(tokens[i + 3]?.surface ?? "")) return null;
  return { start: t.start, surface: "万人", reading: "ばんにん", pos: "名詞,一般" };
}

/** A month before a day (十二月|一日, 4月|1日): 一日 is then the first of the month, ついたち, not a day long. */
const afterMonth = (tokens: Token[], i: number) => {
  const before = tokens[i - 1];
  return !!before && joined(before, tokens[i]!) && before.surface.endsWith("月");
};

const DIGITS = /^[0-9０-９]+$/;
/** What makes the digits after it part of a number (2.5, 1,000), not a number of their own. */
const IN_NUMBER = /[0-9０-９.．,，]$/;
/** The value of a number written in digits, half or full width (12, １２). */
const digitsValue = (s: string) => Number(s.replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)));

/**
 * The first of the month (一日, 1日 after a month or before a day of the week in brackets: 4月1日, 1日（水） ついたち),
 * or the number read with its counter.
 */
const readDay = (tokens: Token[], i: number, n: number, counter: CounterAt) =>
  counter.surface === "日" && n === 1 && (afterMonth(tokens, i) || bracketedDay(tokens, counter.next))
    ? "ついたち"
    : readCount(n, counter.counter);

/**
 * Where the reading of a number with its counter splits into the number's and the counter's: the number's own
 * reading, or that with its last sound doubled (いち → いっ, ろく → ろっ, はち → はっ, じゅう → じゅっ, ひゃく → ひゃっ);
 * -1 when the number's sound changes otherwise (4時 よじ, 4日 よっか, 1人 ひとり, 20日 はつか, 4月 しがつ).
 */
function counterSplit(whole: string, number: string): number {
  if (whole.startsWith(number)) return whole.length > number.length ? number.length : -1;
  const doubled = /[ちくう]$/.test(number) && whole.startsWith(number.slice(0, -1) + "っ");
  return doubled && whole.length > number.length ? number.length : -1;
}

/**
 * A number in digits and its counter (3本, 12月, 1日, 2026年, １２人): the counter read after that number, its ruby
 * over the counter's kanji alone where the number keeps its own sound or only doubles its last (3本 ぼん, 1本 ぽん,
 * 12月 がつ, 2026年 ねん), over digits and counter together where the number's sound changes (counterSplit). Digits
 * after a decimal point or a comma (2.2人, 1,001人) are not read so. Null when no counter of the rules follows.
 */
function digitCount(tokens: Token[], i: number): Read {
  const t = tokens[i]!;
  const before = tokens[i - 1];
  if (!DIGITS.test(t.surface) || (before && joined(before, t) && IN_NUMBER.test(before.surface))) return null;
  let j = i + 1; // full-width digits come one a token (１|２)
  while (j < tokens.length && DIGITS.test(tokens[j]!.surface) && joined(tokens[j - 1]!, tokens[j]!)) j++;
  const digits = tokens.slice(i, j);
  const surface = digits.map((d) => d.surface).join("");
  const n = digitsValue(surface);
  const counter = n > 0 && n < 1e12 ? counterAt(tokens, j) : null;
  if (!counter || !joined(tokens[j - 1]!, tokens[j]!)) return null;
  const whole = readDay(tokens, i, n, counter);
  const split = counterSplit(whole, numberReading(n));
  const read: Token =
    split > 0
      ? { start: tokens[j]!.start, surface: counter.surface, reading: whole.slice(split), pos: "名詞,数" }
      : { start: t.start, surface: surface + counter.surface, reading: whole, pos: "名詞,数" };
  return { tokens: split > 0 ? [...digits, read] : [read], next: counter.next };
}

/** 何 read なん: before a counter, or before a d, n, t sound (何の, 何だ, 何と). */
const NAN_NEXT = /^[だでどのなにぬねとつ]/;

/** What a rule reads at a token: the tokens it makes, and the index of the first token it did not read. */
type Read = { tokens: Token[]; next: number } | null;

/** 何 and 幾: 何 with a counter (何人 なんにん), 何 read なん before a d, n, t sound or a kanji noun; 幾 as it came. */
function what(tokens: Token[], i: number): Read {
  const t = tokens[i]!;
  if (t.surface !== "何" && t.surface !== "幾") return null;
  const counter = counterAt(tokens, i + 1);
  if (counter && joined(t, tokens[i + 1]!) && t.surface === "何") {
    const surface = t.surface + counter.surface;
    return {
      tokens: [{ start: t.start, surface, reading: readCount(-1, counter.counter), pos: "名詞,数" }],
      next: counter.next,
    };
  }
  const next = tokens[i + 1];
  const nounAfter = next && joined(t, next) && next.pos?.startsWith("名詞") && /^\p{Script=Han}/u.test(next.surface);
  const nan = t.surface === "何" && next && (nounAfter || NAN_NEXT.test(toHiragana(next.reading ?? next.surface)));
  return { tokens: [nan ? { ...t, reading: "なん" } : t], next: i + 1 };
}

/** A number in kanji (六|百) with its counter (三本, 一日中, 十二月一日), or alone when written in several words. */
function kanjiNumber(tokens: Token[], i: number): Read {
  const t = tokens[i]!;
  if (!isNumeral(t)) return null;
  const run = numberRun(tokens, i);
  const n = HAS_DIGIT.test(run.surface) ? numberValue(run.surface) : null;
  if (n === null) return null;
  const counter = counterAt(tokens, run.next);
  if (counter && joined(tokens[run.next - 1]!, tokens[run.next]!)) {
    const surface = run.surface + counter.surface;
    const reading = oneWritten(run.surface, readDay(tokens, i, n, counter));
    return { tokens: [{ start: t.start, surface, reading, pos: "名詞,数" }], next: counter.next };
  }
  if (run.next === i + 1) return null;
  const reading = oneWritten(run.surface, numberReading(n));
  return { tokens: [{ start: t.start, surface: run.surface, reading, pos: "名詞,数" }], next: run.next };
}

/** The token at `i` continues a number joined before it (十|五, 1|6): a rule starting there would read half a number. */
const inNumber = (tokens: Token[], i: number) => {
  const before = tokens[i - 1];
  return !!before && joined(before, tokens[i]) && (isNumeral(before) || DIGITS.test(before.surface));
};

/**
 * The lines of a haiku or a tanka counted in syllables, 五七五, 五・七・五, 五七五七七: 七 is しち there (ごしちご),
 * where a number alone is なな. Both 五 and 七, three of them at least, nothing numeral joined before.
 */
function syllables(tokens: Token[], i: number): Read {
  if (!/^[五七]+$/.test(tokens[i]!.surface) || inNumber(tokens, i)) return null;
  let j = i;
  let counted = "";
  while (j < tokens.length) {
    const t = tokens[j]!;
    const numeral = /^[五七]+$/.test(t.surface) && (j === i || joined(tokens[j - 1], t));
    const dot = t.surface === "・" && joined(tokens[j - 1], t) && /^[五七]+$/.test(tokens[j + 1]?.surface ?? "");
    if (!numeral && !dot) break;
    if (numeral) counted += t.surface;
    j++;
  }
  if (counted.length < 3 || !counted.includes("五") || !counted.includes("七")) return null;
  if (tokens[j] && joined(tokens[j - 1], tokens[j]) && isNumeral(tokens[j]!)) return null;
  const read = (t: Token): Token =>
    t.surface === "・"
      ? t
      : { ...t, reading: [...t.surface].map((c) => (c === "五" ? "ご" : "しち")).join(""), pos: "名詞,数" };
  return { tokens: tokens.slice(i, j).map(read), next: j };
}

/** A number and 分 as the analyser may cut them: one word (四分, 二分), or a number (四, 4) and the counter 分. */
function numberAndBu(tokens: Token[], i: number): { surface: string; n: number; next: number } | null {
  const t = tokens[i]!;
  const word = /^([〇一二三四五六七八九十]+)分$/.exec(t.surface);
  if (word) {
    const n = numberValue(word[1]!);
    return n === null ? null : { surface: t.surface, n, next: i + 1 };
  }
  const run = DIGITS.test(t.surface) ? { surface: t.surface, next: i + 1 } : isNumeral(t) ? numberRun(tokens, i) : null;
  const bu = run && tokens[run.next];
  if (!run || bu?.surface !== "分" || !joined(tokens[run.next - 1], bu)) return null;
  const n = DIGITS.test(run.surface) ? digitsValue(run.surface) : numberValue(run.surface);
  return n === null ? null : { surface: run.surface + "分", n, next: run.next + 1 };
}

/**
 * A note's or a rest's value in music, 四分音符 しぶおんぷ, 二分音符 にぶおんぷ, 4分休符 しぶきゅうふ: the number read
 * with 4 as し and 分 as ぶ (the dictionary and the counter rules say よんぷん, にぶん); 休|符 read as one word.
 */
function noteValue(tokens: Token[], i: number): Read {
  if (inNumber(tokens, i)) return null;
  const value = numberAndBu(tokens, i);
  const note = value && tokens[value.next];
  if (!value || !note || !joined(tokens[value.next - 1], note) || value.n < 1) return null;
  const rest =
    note.surface === "休" && tokens[value.next + 1]?.surface === "符" && joined(note, tokens[value.next + 1]);
  if (note.surface !== "音符" && note.surface !== "休符" && !rest) return null;
  const reading = (value.n === 4 ? "し" : numberReading(value.n)) + "ぶ";
  const read: Token[] = [{ start: tokens[i]!.start, surface: value.surface, reading, pos: "名詞,数" }];
  if (!rest) return { tokens: read, next: value.next };
  read.push({ start: note.start, surface: "休符", reading: "きゅうふ", pos: "名詞,一般" });
  return { tokens: read, next: value.next + 2 };
}

const one = (token: Token | null, i: number, length = 1): Read =>
  token ? { tokens: [token], next: i + length } : null;
/** The rules that read a token with its neighbours, in order: the first that reads it wins. */
const READ_AT: ((tokens: Token[], i: number) => Read)[] = [
  what,
  (tokens, i) => one(everyone(tokens, i), i, 2),
  (tokens, i) => one(weekday(tokens, i), i),
  noteValue,
  digitCount,
  syllables,
  kanjiNumber,
];

/** The tokens with the readings the rules give (see the top of this file); other tokens as they came. */
export function applyReadingRules(tokens: Token[]): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < tokens.length) {
    let read: Read = null;
    for (const rule of READ_AT) if ((read = rule(tokens, i))) break;
    if (read) {
      out.push(...read.tokens);
      i = read.next;
    } else {
      out.push(wordRule(tokens[i]!, tokens[i - 1], tokens[i + 1], tokens[i + 2], tokens[i - 2]));
      i++;
    }
  }
  return out;
}
