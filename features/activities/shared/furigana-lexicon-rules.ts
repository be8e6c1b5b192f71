import { toHiragana, toKatakana } from "./furigana-align";
import type { Token } from "./furigana-token";

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
const joined = (a: Token, b: Token) => a.start + a.surface.length === b.start;

/**
 * The lexicon's reading of `words` (adjacent words of kanji only) read as one, or null: none when the lexicon lacks
 * the whole or already reads it as the analyser does (the analyser's words and readings stay); its only reading; of
 * several, the one EDICT marks as common or else its first, which a teacher should check (Token.guess). Numbers and
 * counters are the rules' (furigana-rules.ts): none for a stretch of numbers alone, and no first-of-several for a
 * stretch holding one (三分 stays さんぷん).
 */
function lexiconToken(words: Token[], lexicon: Lexicon): Token | null {
  if (words.every((t) => t.pos?.startsWith("名詞,数"))) return null;
  const surface = words.map((t) => t.surface).join("");
  const found = lexicon.word(surface);
  if (!found || found.readings.length === 0) return null;
  const current = words.every((t) => t.reading) ? toHiragana(words.map((t) => t.reading).join("")) : null;
  if (current && found.readings.includes(current)) return null;
  const counted = words.some((t) => t.pos?.startsWith("名詞,数"));
  const reading = found.common ?? (found.readings.length === 1 || !counted ? found.readings[0]! : null);
  if (!reading) return null;
  return {
    start: words[0]!.start,
    surface,
    reading: toKatakana(reading),
    pos: "名詞,一般",
    ...(found.readings.length > 1 ? { guess: true } : {}),
  };
}

/**
 * The longest stretch of `tokens` from `start` (up to `end`) that the lexicon reads as one word, or null. The stretch
 * grows a word at a time while some word of the lexicon starts with it, so a long run of kanji costs a few lookups a
 * word, not one for every stretch of it.
 */
function longestAt(tokens: Token[], start: number, end: number, lexicon: Lexicon) {
  let longest: { token: Token; end: number } | null = null;
  let surface = "";
  for (let stop = start + 1; stop <= end; stop++) {
    surface += tokens[stop - 1]!.surface;
    if (!lexicon.hasPrefix(surface)) break;
    if (stop - start < 2 && !tokens[start]!.unknown) continue;
    const token = lexiconToken(tokens.slice(start, stop), lexicon);
    if (token) longest = { token, end: stop };
  }
  return longest;
}

/**
 * The analyser's words with each stretch of adjacent kanji-only words that the lexicon holds as one word joined into
 * that word, with the lexicon's reading: longest first from the left, a stretch of two words or more, or one word the
 * analyser did not know. Other words are returned as they are, in order.
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
      if (found) {
        out.push(found.token);
        i = found.end;
      } else out.push(tokens[i++]!);
    }
  }
  return out;
}
