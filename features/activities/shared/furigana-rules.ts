import { toHiragana } from "./furigana-align";
import {
  counterAt,
  kanaCounterAt,
  dictionaryCounterAt,
  NUMERAL,
  numberReading,
  numberValue,
  readCount,
  type CounterAt,
} from "./furigana-counters";
import { joined, pos, type Token } from "./furigana-token";
import { wordRule } from "./furigana-word-rules";
import { beforeDayInKana, bracketedDay, weekday } from "./furigana-weekday-rules";

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

/** 何 read なん: before a counter, or before a d, n, t sound (何の, 何だ, 何と) but に (何にする, 何になりたい なにに). */
const NAN_NEXT = /^[だでどのなぬねとつ]/;
/** A unit written in letters or a sign, a counter 何 is read なん before (何cm, 何kg, 何%, 何℃). */
const UNIT = /^[A-Za-zＡ-Ｚａ-ｚ%％℃°㎝㎏㎞㎜]/;

/** What a rule reads at a token: the tokens it makes, and the index of the first token it did not read. */
type Read = { tokens: Token[]; next: number } | null;

/**
 * 何 and 幾: 何 with a counter (何人 なんにん), 何 read なん before a d, n, t sound, a kanji noun, a unit (何cm), a
 * counter written in kana (何まい) or よう日 (何ようび); 幾 as it came.
 */
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
  const unitAfter = next && joined(t, next) && UNIT.test(next.surface);
  // a counter written in kana (何まい, 何ぼん, 何じ): as before its kanji
  const countAfter = () => joined(t, next) && kanaCounterAt(tokens, i + 1, -1) !== null;
  // 何にも なんにも (何にもない), as the particles に and も after it
  const then = tokens[i + 2];
  const nanimo = next?.surface === "に" && joined(next, then) && then?.surface === "も" && pos(then, "助詞");
  const nan =
    t.surface === "何" &&
    next &&
    (nounAfter ||
      unitAfter ||
      NAN_NEXT.test(toHiragana(next.reading ?? next.surface)) ||
      nanimo ||
      countAfter() ||
      beforeDayInKana(tokens, i));
  return { tokens: [nan ? { ...t, reading: "なん" } : t], next: i + 1 };
}

/**
 * A number in kanji (六|百) with its counter (三本, 一日中, 十二月一日), before its counter written in kana (一ぽん), or
 * alone when written in several words.
 */
function kanjiNumber(tokens: Token[], i: number): Read {
  const t = tokens[i]!;
  if (!isNumeral(t)) return null;
  const run = numberRun(tokens, i);
  const n = HAS_DIGIT.test(run.surface) ? numberValue(run.surface) : null;
  if (n === null) return null;
  const found = counterAt(tokens, run.next);
  // 一|行 with no 目 after it: one line or a party (プリンプリン一行), read as the dictionary reads it and marked
  const undecided = !!found?.counter.notAfterKanjiOne && n === 1 && tokens[found.next]?.surface !== "目";
  const counter = undecided ? dictionaryCounterAt(tokens, run.next) : found;
  if (counter && joined(tokens[run.next - 1]!, tokens[run.next]!)) {
    const surface = run.surface + counter.surface;
    const reading = oneWritten(run.surface, readDay(tokens, i, n, counter));
    const read: Token = { start: t.start, surface, reading, pos: "名詞,数", ...(undecided ? { guess: true } : {}) };
    return { tokens: [read], next: counter.next };
  }
  const inKana = counter ? null : kanaCounterAt(tokens, run.next, n);
  if (inKana) {
    const read: Token = {
      start: t.start,
      surface: run.surface,
      reading: oneWritten(run.surface, inKana),
      pos: "名詞,数",
    };
    return { tokens: [read], next: run.next };
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

/**
 * 目 after a count, the ordinal め (3人目, 一人目, 2回目, 一つ目, 三日目, 5ページ目): a counter's suffix, read as the
 * analyser reads it but not marked for checking. Not after 分 (8分目 is はちぶんめ, which the counter rules do not read).
 */
const NATIVE_COUNT = /^([一二三四五六七八九幾]|いく)つ$|^[一二三四五六七八九十]+日$/;
function ordinal(tokens: Token[], i: number): Read {
  const [before, t] = [tokens[i - 1], tokens[i]!];
  if (t.surface !== "目" || t.reading !== "メ" || !joined(before, t) || before.surface === "分") return null;
  const count = pos(before, "名詞,数") || pos(before, "名詞,接尾,助数詞") || NATIVE_COUNT.test(before.surface);
  return count ? { tokens: [{ ...t, pos: "名詞,接尾,助数詞" }], next: i + 1 } : null;
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
  ordinal,
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
