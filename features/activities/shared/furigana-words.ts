import { hasKanji, isKana, toHiragana } from "./furigana-align";
import type { Proposal, Token, WordEntry } from "./furigana-propose";
import { rubySpans } from "./furigana-spans";

/** The longest word the school's list keeps (a word, not a sentence). */
export const MAX_LISTED_WORD = 20;
/** The most words a school's list keeps; a save that adds more drops the ones longest unsaved. */
export const MAX_SCHOOL_WORDS = 2_000;
/** The longest reading it keeps (the database checks it too). */
const MAX_LISTED_READING = 60;

/** Every string held in `value` (a scene's content, an activity file: its texts among ids and options). */
export function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** A teacher's ruby in the plain text: [start, end) holds its base. */
interface Ruby {
  start: number;
  end: number;
  reading: string;
}

/** `text` (stored markup) with each ruby `|base(reading)` written as its base alone, and where those bases now stand. */
export function withoutRuby(text: string): { plain: string; rubies: Ruby[] } {
  let plain = "";
  let at = 0;
  const rubies: Ruby[] = [];
  for (const r of rubySpans(text)) {
    plain += text.slice(at, r.start);
    rubies.push({ start: plain.length, end: plain.length + r.base.length, reading: r.reading });
    plain += r.base;
    at = r.start + r.length;
  }
  return { plain: plain + text.slice(at), rubies };
}

/** The reading of plain[start, end) from `rubies` over its kanji and its own kana; null when a character has none. */
function readingOf(
  plain: string,
  start: number,
  end: number,
  rubies: { start: number; end: number; reading: string }[],
) {
  let reading = "";
  let at = start;
  while (at < end) {
    const ruby = rubies.find((r) => r.start === at && r.end <= end);
    if (ruby) {
      if (!isKana(ruby.reading)) return null;
      reading += toHiragana(ruby.reading);
      at = ruby.end;
    } else if (isKana(plain[at]!)) reading += toHiragana(plain[at++]!);
    else return null;
  }
  return reading;
}

/** The analyser's words (a run of them) holding plain[start, end), as [start, end); null when no word does. */
function wordAround(tokens: Token[], start: number, end: number) {
  const held = tokens.filter((t) => t.start < end && start < t.start + t.surface.length);
  if (held.length === 0) return null;
  return {
    start: Math.min(start, ...held.map((t) => t.start)),
    end: Math.max(end, ...held.map((t) => t.start + t.surface.length)),
  };
}

/**
 * The words a teacher read otherwise than the proposer, for the school's list: for each ruby of `rubies` (a
 * teacher's, in `plain`), the analyser's word or run holding it, read with the teacher's rubies (and the
 * proposer's readings where the teacher left kanji bare), kept when the proposer reads it otherwise, marked it to
 * check or could not read it. `tokens` and `proposals` are the analyser's and proposer's for `plain`. Only a word
 * of at most MAX_LISTED_WORD characters with a kanji, read in kana alone, is kept; hiragana.
 */
export function correctedWords(plain: string, rubies: Ruby[], tokens: Token[], proposals: Proposal[]): WordEntry[] {
  const words = new Map<string, string>();
  for (const ruby of rubies) {
    const word = wordAround(tokens, ruby.start, ruby.end);
    if (!word || word.end - word.start > MAX_LISTED_WORD) continue;
    const base = plain.slice(word.start, word.end);
    if (!hasKanji(base)) continue;
    const inWord = proposals.filter((p) => word.start <= p.start && p.end <= word.end);
    const bare = inWord.filter((p) => !rubies.some((r) => p.start < r.end && r.start < p.end));
    const teacher = readingOf(plain, word.start, word.end, [...rubies, ...bare]);
    if (!teacher || teacher.length > MAX_LISTED_READING) continue;
    const proposed = readingOf(plain, word.start, word.end, inWord);
    if (proposed === teacher && !inWord.some((p) => p.check)) continue;
    words.set(base, teacher);
  }
  return [...words].map(([base, reading]) => ({ base, reading }));
}
