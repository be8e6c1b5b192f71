import { toHiragana, toKatakana } from "./furigana-align";
import { joined, type Token } from "./furigana-token";

/**
 * A second dictionary for the words the analyser's own lacks: compounds it cuts into words read alone (七|輪 なな|りん
 * for しちりん, 豚|足 ぶた|あし for とんそく) and words it does not know at all (雹). The words come from EDICT
 * (server/lexicon/README.md); a word's readings are in hiragana, `common` the one EDICT marks as common when exactly
 * one is.
 */
export interface LexiconWord {
  readings: string[];
  common: string | null;
}
export interface Lexicon {
  word(surface: string): LexiconWord | undefined;
  /** whether some word of the lexicon starts with `prefix`: a stretch stops growing as soon as none does */
  hasPrefix(prefix: string): boolean;
}

const KANJI = /^[\p{Script=Han}々ヶ]+$/u;
const isNumber = (t: Token | undefined) => t?.pos?.startsWith("名詞,数") === true;
/** Word `at` and the one before it are parts of one number (二十|七): no stretch may start or end between them. */
const numberGoesOn = (tokens: Token[], at: number) =>
  at > 0 &&
  at < tokens.length &&
  isNumber(tokens[at - 1]) &&
  isNumber(tokens[at]) &&
  joined(tokens[at - 1]!, tokens[at]!);

/** What the lexicon makes of a stretch it holds as one word: that word, or "keep" the analyser's words as they are. */
type Verdict = Token | "keep";

/**
 * The lexicon's verdict on `words` (adjacent words of kanji only) read as one, `surface`, or null when it does not
 * hold them as one word. "keep" when the analyser already reads them so, and when they hold a number and the word has several
 * readings or is a number alone: numbers and counters are the rules' (furigana-rules.ts: 一分 いっぷん, 四人 よにん,
 * 三十日 さんじゅうにち). Otherwise the word with its only reading, or of several the one EDICT marks as common or
 * else its first, which a teacher should check (Token.guess).
 */
function lexiconVerdict(words: Token[], surface: string, lexicon: Lexicon): Verdict | null {
  const found = lexicon.word(surface);
  if (!found) return null;
  const current = words.every((t) => t.reading) ? toHiragana(words.map((t) => t.reading).join("")) : null;
  if (current && found.readings.includes(current)) return "keep";
  if (words.some(isNumber) && (found.readings.length > 1 || words.every(isNumber))) return "keep";
  return {
    start: words[0]!.start,
    surface,
    reading: toKatakana(found.common ?? found.readings[0]!),
    pos: "名詞,一般",
    ...(found.readings.length > 1 ? { guess: true } : {}),
  };
}

/**
 * The longest stretch of `tokens` from `start` (up to `end`) that the lexicon holds as one word, with its verdict, or
 * null: two words or more, or one the analyser did not know, never cutting a number. The stretch grows a word at a
 * time while some word of the lexicon starts with it, so a long run of kanji costs a few lookups a word, not one for
 * every stretch of it.
 */
function longestAt(tokens: Token[], start: number, end: number, lexicon: Lexicon) {
  if (numberGoesOn(tokens, start)) return null;
  let longest: { verdict: Verdict; end: number } | null = null;
  let surface = "";
  for (let stop = start + 1; stop <= end; stop++) {
    surface += tokens[stop - 1]!.surface;
    if (!lexicon.hasPrefix(surface)) break;
    if ((stop - start < 2 && !tokens[start]!.unknown) || numberGoesOn(tokens, stop)) continue;
    const verdict = lexiconVerdict(tokens.slice(start, stop), surface, lexicon);
    if (verdict) longest = { verdict, end: stop };
  }
  return longest;
}

/**
 * The analyser's words with each stretch of adjacent kanji-only words that the lexicon holds as one word joined into
 * that word, with the lexicon's reading: longest first from the left, a stretch of two words or more, or one word the
 * analyser did not know. A stretch the lexicon holds but leaves to the analyser (lexiconVerdict) stays as it is, and
 * so do other words, in order.
 */
export function joinLexiconWords(tokens: Token[], lexicon: Lexicon): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < tokens.length) {
    let end = i;
    while (
      end < tokens.length &&
      KANJI.test(tokens[end]!.surface) &&
      (end === i || joined(tokens[end - 1]!, tokens[end]!))
    )
      end++;
    if (end === i) {
      out.push(tokens[i++]!);
      continue;
    }
    while (i < end) {
      const found = longestAt(tokens, i, end, lexicon);
      if (!found) out.push(tokens[i++]!);
      else {
        out.push(...(found.verdict === "keep" ? tokens.slice(i, found.end) : [found.verdict]));
        i = found.end;
      }
    }
  }
  return out;
}
