import { alignReading, hasKanji, isKana } from "./furigana-align";
import { textSpans, type TextSpan } from "./furigana-spans";
import { CURRICULUM_FIGURES } from "./furigana-figures";
import { CURRICULUM_HISTORY } from "./furigana-history";
import { CURRICULUM_PLACES } from "./furigana-places";
import { CURRICULUM_TERMS } from "./furigana-terms";
import { LITERATURE_AUTHORS, LITERATURE_WORDS } from "./furigana-literature";
import { sureAffix } from "./furigana-affixes";
import { NUMERAL } from "./furigana-counters";
import { applyReadingRules } from "./furigana-rules";
import type { Token } from "./furigana-token";

export type { Token } from "./furigana-token";

/** A person of the roster as a reading source: the name's parts (family, given) with their kana. */
export interface NameEntry {
  parts: { base: string; reading: string }[];
}

/** A word of the school's own list (features/activities/shared/furigana-words.ts): a teacher's reading of it, hiragana. */
export interface WordEntry {
  base: string;
  reading: string;
}

/** A proposed ruby: `base` is `text.slice(start, end)`, `reading` in hiragana; `word` the whole word, for the teacher to see. */
export interface Proposal {
  start: number;
  end: number;
  base: string;
  reading: string;
  word: string;
  source: "dictionary" | "roster" | "school";
  /** the analyser guessed (unknown word, prefix or suffix, proper noun): the editor marks it for the teacher to check */
  check: boolean;
}

/** Characters the stored markup gives a meaning to: a ruby base or reading must not hold them (platform/richtext/parse.ts). */
const MARKUP = /[|()（）\n`{}*_]/;

interface Claim {
  start: number;
  end: number;
}
const overlaps = (claims: Claim[], start: number, end: number) => claims.some((c) => start < c.end && c.start < end);
/** The span holding [start, end), by binary search (spans are in text order and do not overlap). */
function spanOf(spans: TextSpan[], start: number, end: number): TextSpan | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = spans[mid]!;
    if (start < s.start) hi = mid - 1;
    else if (start >= s.start + Math.max(s.text.length, 1)) lo = mid + 1;
    else return end <= s.start + s.text.length ? s : undefined;
  }
  return undefined;
}

/** The ruby of one word at `start`, okurigana left bare; none where the markup would not read it back. */
function rubyOf(
  text: string,
  start: number,
  word: string,
  reading: string,
  source: Proposal["source"],
  check = false,
): Proposal[] {
  if (!isKana(reading)) return [];
  return alignReading(word, reading)
    .map((seg) => ({
      start: start + seg.offset,
      end: start + seg.offset + seg.base.length,
      base: seg.base,
      reading: seg.reading,
      word,
      source,
      check,
    }))
    .filter((p) => !MARKUP.test(p.base) && !MARKUP.test(p.reading) && text[p.start - 1] !== "|");
}

/** Parts of speech where the dictionary's reading is a guess: proper nouns, prefixes, suffixes. */
const GUESSED_POS = /^(名詞,固有名詞|名詞,接尾|接頭詞)/;
/**
 * A word the teacher should check: unknown to the dictionary, a proper noun, a prefix or a suffix (counters read by
 * rule and the affixes of SURE_AFFIXES are not), a reading a rule chose among the dictionary's; not a word a rule read
 * from its neighbours, whatever its part of speech (Token.guess).
 */
const guessed = (t: Token) =>
  t.guess ??
  (t.unknown === true || (GUESSED_POS.test(t.pos ?? "") && !t.pos!.startsWith("名詞,接尾,助数詞") && !sureAffix(t)));

/**
 * A listed reading: a roster name (its parts), a word of the school's list, or a person, place, event or term of the
 * curriculum (furigana-figures.ts, furigana-places.ts, furigana-history.ts, furigana-terms.ts,
 * furigana-literature.ts, shown as the dictionary's); `whole` only where the analyser cut a word or run.
 */
interface Listed {
  surface: string;
  parts: NameEntry["parts"];
  source: Proposal["source"];
  whole: boolean;
}

const surfaceOf = (n: NameEntry) => n.parts.map((p) => p.base).join("");

/**
 * The people, places and literature of the curriculum as listed names, made once: a one-word name (行基, 青森県, 徒然草)
 * only where the analyser's words start and end, not inside 進行基準.
 */
const CURRICULUM: Listed[] = [
  ...CURRICULUM_FIGURES,
  ...LITERATURE_AUTHORS,
  ...[...CURRICULUM_PLACES, ...CURRICULUM_HISTORY, ...CURRICULUM_TERMS, ...LITERATURE_WORDS].map((word) => [word]),
].map((parts) => ({
  surface: parts.map(([base]) => base).join(""),
  parts: parts.map(([base, reading]) => ({ base, reading })),
  source: "dictionary" as const,
  whole: parts.length < 2,
}));

function listedOf(names: NameEntry[], words: WordEntry[]): Listed[] {
  const listed: Listed[] = [
    ...names.map((n) => ({
      surface: surfaceOf(n),
      parts: n.parts,
      source: "roster" as const,
      whole: n.parts.length < 2,
    })),
    ...words.map((w) => ({ surface: w.base, parts: [w], source: "school" as const, whole: true })),
    ...CURRICULUM,
  ];
  // longest first; at equal length a roster name before a word of the list before a person of the curriculum (a
  // stable sort)
  return listed
    .filter((e) => e.surface !== "" && hasKanji(e.surface))
    .sort((a, b) => b.surface.length - a.surface.length);
}

/**
 * Where roster names and the school's words stand: a full name anywhere in plain text, a single part of a name or
 * a listed word only where the analyser's words start and end (学 in 学校 is no name).
 */
function listedMatches(text: string, spans: TextSpan[], tokens: Token[], listed: Listed[]) {
  const starts = new Map(tokens.map((t) => [t.start, t]));
  const ends = new Set(tokens.map((t) => t.start + t.surface.length));
  // a word ending in a numeral is not whole when a number or a counter goes on after it (兵十万, 兵十人)
  const countGoesOn = (surface: string, end: number) =>
    NUMERAL.test(surface.slice(-1)) && /^名詞,(数|接尾,助数詞)/.test(starts.get(end)?.pos ?? "");
  const found: { start: number; entry: Listed }[] = [];
  const claims: Claim[] = [];
  for (const entry of listed) {
    for (let at = text.indexOf(entry.surface); at >= 0; at = text.indexOf(entry.surface, at + 1)) {
      const end = at + entry.surface.length;
      if (!spanOf(spans, at, end) || overlaps(claims, at, end)) continue;
      if (entry.whole && !(starts.has(at) && ends.has(end) && !countGoesOn(entry.surface, end))) continue;
      claims.push({ start: at, end });
      found.push({ start: at, entry });
    }
  }
  return { found, claims };
}

/**
 * The furigana to propose for `text` (stored markup), from the analyser's
 * `tokens` (offsets into `text`), the school's `names` and its own `words`:
 * every word with a kanji in the plain-text parts of the markup gets its
 * reading over its kanji, a roster name its roster reading, a listed word the
 * school's reading (never marked to check). Existing ruby, math and markup are
 * left alone. Pure: the same input gives the same proposals, in text order.
 */
export function proposeFurigana(
  text: string,
  tokens: Token[],
  names: NameEntry[] = [],
  words: WordEntry[] = [],
): Proposal[] {
  const spans = textSpans(text);
  const { found, claims } = listedMatches(text, spans, tokens, listedOf(names, words));
  const proposals: Proposal[] = [];
  for (const { start, entry } of found) {
    let at = start;
    for (const part of entry.parts) {
      if (part.reading) proposals.push(...rubyOf(text, at, part.base, part.reading, entry.source));
      at += part.base.length;
    }
  }
  for (const token of applyReadingRules(tokens)) {
    const end = token.start + token.surface.length;
    if (!token.reading || !hasKanji(token.surface) || text.slice(token.start, end) !== token.surface) continue;
    if (!spanOf(spans, token.start, end) || overlaps(claims, token.start, end)) continue;
    proposals.push(...rubyOf(text, token.start, token.surface, token.reading, "dictionary", guessed(token)));
  }
  return proposals.sort((a, b) => a.start - b.start);
}

/** A reading as the teacher left it, made safe for the markup: no character that opens or closes a form (empty: no ruby). */
export const cleanReading = (reading: string) => reading.replace(/[|()（）\n\r`{}*_]/g, "").trim();

/**
 * `text` with the accepted proposals written in as ruby (`|base(reading)`).
 * A proposal whose base is no longer at its place, that overlaps another, or
 * whose reading is empty is skipped: the text never gets broken markup.
 */
export function applyFurigana(text: string, accepted: Pick<Proposal, "start" | "end" | "base" | "reading">[]): string {
  const spans = textSpans(text);
  let out = "";
  let at = 0;
  for (const p of [...accepted].sort((a, b) => a.start - b.start)) {
    const reading = cleanReading(p.reading);
    if (p.start < at || p.base === "" || text.slice(p.start, p.end) !== p.base || MARKUP.test(p.base) || reading === "")
      continue;
    if (!spanOf(spans, p.start, p.end)) continue;
    // after a literal | the new ruby's bar would make a line break (||); right after a ruby written here it is a )
    if (p.start > at && text[p.start - 1] === "|") continue;
    out += `${text.slice(at, p.start)}|${p.base}(${reading})`;
    at = p.end;
  }
  return out + text.slice(at);
}
