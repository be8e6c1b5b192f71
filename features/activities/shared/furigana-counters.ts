import { halfVoiced, hasKanji, isHiragana, isKana, toHiragana, voiced } from "./furigana-align";
import { joined, type Token } from "./furigana-token";

/**
 * Numbers in kanji and their counters, read as spoken: 六百 ろっぴゃく, 一本 いっぽん, 三本 さんぼん, 一人 ひとり, 八日
 * ようか, 二十歳 はたち, 何人 なんにん, 4年生 よねんせい, 1年中 いちねんじゅう, a counter of the dictionary (一隻
 * いっせき) and one written in kana (一ぽん いっ). The reading rules (furigana-rules.ts) find the number; this file
 * reads it with what follows.
 */

const DIGIT: Record<string, number> = { 〇: 0, 零: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const UNIT: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };
const BIG: Record<string, number> = { 万: 10_000, 億: 100_000_000 };
export const NUMERAL = /^[〇零一二三四五六七八九十百千万億]+$/;
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
export interface Counter {
  reading: string;
  /** the sound after 3 and 何: b (さんぼん) or p (さんぷん); none: unchanged */
  afterThree?: "b" | "p";
  /** 4 read よ (よにん, よじ) or し (しかくけい), 7 しち, 9 く */
  yo?: boolean;
  shi?: boolean;
  shichi?: boolean;
  ku?: boolean;
  /** whole readings for some numbers (一人 ひとり), -1 for 何 (何重 いくえ) */
  own?: Record<number, string>;
  /** a native word (組 くみ): the number's sound never doubles before it (一組 いちくみ) */
  plain?: boolean;
  /**
   * after 一 in kanji with no ordinal 目, maybe another word: the dictionary's reading, marked (一|行 いっこう, a party,
   * or one line)
   */
  notAfterKanjiOne?: boolean;
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
  回り: { reading: "まわり", plain: true, own: { 1: "ひとまわり", 2: "ふたまわり" } },
  重: { reading: "じゅう", own: { 1: "ひとえ", 8: "やえ", [-1]: "いくえ" } },
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
  小節: { reading: "しょうせつ" },
  角形: { reading: "かくけい", shi: true },
  学年: { reading: "がくねん" },
  行: { reading: "ぎょう", notAfterKanjiOne: true },
  文: { reading: "ぶん" },
  // the analyser's word 文目 (あやめ, a pattern) after a number is the ordinal of a sentence (3文目)
  文目: { reading: "ぶんめ" },
};

/** The counter's first sound after 3 or 何: voiced (さんぼん, さんがい), half-voiced (さんぷん) or as it is. */
const afterThree = (counter: Counter, first: string) =>
  counter.afterThree === "b" ? voiced(first) : counter.afterThree === "p" ? halfVoiced(first) : first;

/** A number (or 何, as -1) with its counter: the number's last sound and the counter's first join as spoken. */
export function countReading(n: number, surface: string): string | null {
  const counter = COUNTERS[surface];
  return counter ? readCount(n, counter) : null;
}

export function readCount(n: number, counter: Counter): string {
  if (counter.own?.[n]) return counter.own[n]!;
  const first = counter.reading[0]!;
  const rest = counter.reading.slice(1);
  if (n === -1) return "なん" + afterThree(counter, first) + rest;
  let head = numberReading(n);
  const last = n % 10 === 0 ? (n % 100 === 0 ? (n % 1000 === 0 ? 0 : 100) : 10) : n % 10;
  if (last === 4 && counter.yo) head = head.slice(0, -2) + "よ";
  if (last === 4 && counter.shi) head = head.slice(0, -2) + "し";
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

/** The longest counter written in kana (しゅうかん). */
const MAX_COUNTER_KANA = 5;

/** The number's reading before `kana` as the counters of the list read it after `n`: none, or two that differ. */
function numberBefore(kana: string, n: number): string[] {
  const numbers = new Set<string>();
  for (const counter of Object.values(COUNTERS)) {
    const whole = counter.reading.length === kana.length ? readCount(n, counter) : "";
    if (whole.length > kana.length && whole.endsWith(kana)) numbers.add(whole.slice(0, -kana.length));
  }
  return [...numbers];
}

/**
 * The kana from `tokens[j]` on that may be a counter, shortest first: the words of kana joined there, one more each
 * time, and the start of a word the analyser does not know, two kana at least (十ぷんかかる: ぷん).
 */
function* kanaAfterNumber(tokens: Token[], j: number): Generator<string> {
  let kana = "";
  for (let k = j; k < tokens.length && joined(tokens[k - 1], tokens[k]) && isHiragana(tokens[k]!.surface); k++) {
    const word = tokens[k]!.surface;
    if (tokens[k]!.unknown)
      for (let cut = 2; cut < word.length && kana.length + cut <= MAX_COUNTER_KANA; cut++)
        yield kana + word.slice(0, cut);
    kana += word;
    if (kana.length > MAX_COUNTER_KANA) return;
    yield kana;
  }
}

/**
 * A counter written in kana after the number `n` from `tokens[j]` on, as the lower grades write one whose kanji they
 * have not learned (一ぽん, 六ぴき, 八さい, 四じ; 目 after it in kana too: 何かいめ): the number's reading before it,
 * where the counters of the list whose reading after `n` ends with exactly those kana agree on it; null where none
 * does, or two read the number apart (一ばん: 番 いち, 晩 ひと). The kana are whole words of the analyser's (一こと:
 * こと is a word, not こ then と), or the start of a word it does not know (十ぷんかかる, one unknown word: ぷん, then
 * かかる).
 */
export function kanaCounterAt(tokens: Token[], j: number, n: number): string | null {
  for (const kana of kanaAfterNumber(tokens, j)) {
    // 目 in kana after the counter (何かいめ, 三まいめ) reads the number as the counter alone does
    const numbers = kana.length > 1 && kana.endsWith("め") ? numberBefore(kana.slice(0, -1), n) : numberBefore(kana, n);
    if (numbers.length > 0) return numbers.length === 1 ? numbers[0]! : null;
  }
  return null;
}

const ROWS: Record<string, string> = {
  か: "かきくけこ",
  さ: "さしすせそ",
  た: "たちつてと",
  は: "はひふへほ",
};
const rowOf = (c: string) => Object.keys(ROWS).find((r) => ROWS[r]!.includes(c)) ?? "";

/** A counter found after a number: what it covers, the index of the token after it, and how it is read. */
export type CounterAt = { surface: string; next: number; counter: Counter };

/**
 * Counters written as one token or two (週|間, ヶ|月); a counter of the dictionary that the list above lacks (隻,
 * 回戦, 騎) with the dictionary's reading, its first sound doubling after 1, 6, 8, 10, 100 as above (一隻 いっせき).
 */
export function counterAt(tokens: Token[], j: number): CounterAt | null {
  const a = tokens[j];
  if (!a) return null;
  const b = tokens[j + 1];
  const two = b && joined(a, b) ? COUNTERS[a.surface + b.surface] : undefined;
  if (two) return withCountTail(tokens, { surface: a.surface + b!.surface, next: j + 2, counter: two });
  const one = COUNTERS[a.surface] ?? leadingCounter(a);
  if (one) return withCountTail(tokens, { surface: a.surface, next: j + 1, counter: one });
  return dictionaryCounterAt(tokens, j);
}

/** A counter as the dictionary reads it (一行 いっこう), or null. */
export function dictionaryCounterAt(tokens: Token[], j: number): CounterAt | null {
  const a = tokens[j];
  if (a?.pos?.startsWith("名詞,接尾,助数詞") && a.reading && isKana(a.reading) && hasKanji(a.surface))
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

/**
 * What a count can have after its counter, read with it: 中 after a time, the whole time じゅう (1年中 いちねんじゅう,
 * 一晩中 ひとばんじゅう); 玉 and 札 after 円, a coin and a note (百円玉 ひゃくえんだま, 一万円札 いちまんえんさつ). The
 * analyser marks each of them as a suffix; read so they are not. (An ordinal's 目 is read on its own: furigana-rules.ts.)
 */
const COUNT_TAILS: { surface: string; reading: string; after: RegExp }[] = [
  { surface: "中", reading: "じゅう", after: /^(日|年|晩|週間|年間)$/ },
  { surface: "玉", reading: "だま", after: /^円$/ },
  { surface: "札", reading: "さつ", after: /^円$/ },
];

function withCountTail(tokens: Token[], found: CounterAt): CounterAt {
  const after = tokens[found.next];
  const tail = COUNT_TAILS.find((x) => x.surface === after?.surface && x.after.test(found.surface));
  if (!tail || !joined(tokens[found.next - 1], after)) return found;
  const reading = found.counter.reading + tail.reading;
  return {
    surface: found.surface + tail.surface,
    next: found.next + 1,
    counter: withTail(found.counter, reading, tail.reading),
  };
}
