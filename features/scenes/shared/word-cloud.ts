import { z } from "zod";
import { foldAnswer } from "./answer-fold";

/**
 * Word cloud (ことばの雲) scenes (features/scenes/README.md "Word cloud"): each student sends one to `maxWords`
 * (at most three) short words or phrases of at most WORD_LIMITS.length characters; the class's words are grouped
 * by their folded form (answer-fold.ts: NFKC, white space, case, katakana → hiragana) and each group is shown by
 * its most common spelling, sized by its count. No key, no points.
 */
export const WORD_LIMITS = { length: 20, words: 3 } as const;
/** Message keys (Scenes) of a word left empty and of a word over the limit. */
export const WORD_EMPTY = "wordEmpty";
export const WORD_TOO_LONG = "wordTooLong";

/** One word as stored: white space at its ends trimmed, runs of it inside made one space. */
export const tidyWord = (typed: string) => typed.trim().replace(/\s+/gu, " ");

/**
 * The answer to a scene that takes up to `maxWords` words: each non-empty and at most WORD_LIMITS.length characters
 * (`answerText`: storable text, schema.ts, passed in as fill-blanks.ts does).
 */
export function wordCloudAnswerSchema(maxWords: number, answerText: (max: number) => z.ZodType<string, string>) {
  const word = z
    .string()
    .max(WORD_LIMITS.length, WORD_TOO_LONG)
    .refine((w) => tidyWord(w) !== "", { message: WORD_EMPTY })
    .pipe(answerText(WORD_LIMITS.length));
  return z
    .object({ words: z.array(word).min(1, WORD_EMPTY).max(maxWords) })
    .strict()
    .refine((a) => new Set(a.words.map(wordKey)).size === a.words.length, "a word is sent once");
}

/**
 * The words a student typed into the boxes, ready to send: tidied, empty boxes left out, a word typed twice (by its
 * key: ネコ and ねこ) sent once, so each group counts students; null when none is left.
 */
export function wordsToSend(typed: string[]): string[] | null {
  const words = typed.map(tidyWord).filter((w) => w !== "");
  const once = words.filter((w, i) => words.findIndex((x) => wordKey(x) === wordKey(w)) === i);
  return once.length > 0 ? once : null;
}

/** The longest key a word may have (NFKC may lengthen a word: ㍿ is four characters). */
export const WORD_KEY_MAX = 200;

/** The grouping key of a word: its folded form (answer-fold.ts). */
export const wordKey = (word: string) => foldAnswer(word);

/** A group of words: its key, the spelling shown (the most common one; the first in code-point order on a tie), how many. */
export interface WordGroup {
  key: string;
  word: string;
  n: number;
}

/**
 * The spellings counted (one row per stored spelling, as one grouped query reads them) merged into groups by
 * wordKey, most answers first, then by key. Work is per spelling, never per answer.
 */
export function groupWords(spellings: { word: string; n: number }[]): WordGroup[] {
  const bySpelling = new Map<string, number>();
  for (const s of spellings) {
    const word = tidyWord(s.word);
    if (s.n > 0 && wordKey(word) !== "") bySpelling.set(word, (bySpelling.get(word) ?? 0) + s.n);
  }
  const groups = new Map<string, { n: number; word: string; most: number }>();
  for (const [word, n] of bySpelling) {
    const key = wordKey(word);
    const g = groups.get(key);
    if (!g) groups.set(key, { n, word, most: n });
    else {
      g.n += n;
      if (n > g.most || (n === g.most && word < g.word)) Object.assign(g, { word, most: n });
    }
  }
  return [...groups]
    .map(([key, g]) => ({ key, word: g.word, n: g.n }))
    .sort((a, b) => b.n - a.n || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The groups the class may see: every group whose key the teacher has not hidden. */
export const shownWords = (groups: WordGroup[], hidden: readonly string[]) =>
  groups.filter((g) => !hidden.includes(g.key));
