import { foldAnswer } from "./answer-fold";
import { blankMatches, blanksOf } from "./fill-blanks";
import { numberCorrect } from "./number-answer";
import type { Scene } from "./schema";
import { tidyWord } from "./word-cloud";

/**
 * Counting fill-in-the-blanks, number and word cloud answers (the live results, features/play/server/state-queries.ts, and
 * the statistics, features/results/server/typed-stats.ts), under count keys:
 * - `blank<i>`: the wrong answers typed in blank i (folded, answer-fold.ts; "" for a blank left empty);
 * - `blankRight`: per blank index, how many were right;
 * - `number`: per value, how many typed it; `numberRight` (scenes with a correct value): `right` and `wrong`;
 * - `words`: a word cloud's words per spelling (grouped for showing by word-cloud.ts `groupWords`).
 */
export type Counts = Record<string, Record<string, number>>;
const TOP_WRONG = 3;

export function tallyTyped(scene: Scene, answer: unknown, add: (key: string, value: string) => void): void {
  const a = (answer ?? {}) as Record<string, unknown>;
  if (scene.type === "fill_blanks" && Array.isArray(a.blanks)) {
    blanksOf(scene.content.text).forEach((accepted, i) => {
      const typed = (a.blanks as unknown[])[i];
      if (typeof typed === "string" && blankMatches(accepted, typed)) add("blankRight", String(i));
      else add(`blank${i}`, typeof typed === "string" ? foldAnswer(typed) : "");
    });
  }
  if (scene.type === "word_cloud" && Array.isArray(a.words))
    for (const w of a.words) if (typeof w === "string" && tidyWord(w) !== "") add("words", tidyWord(w));
  if (scene.type === "number" && typeof a.number === "number") {
    add("number", String(a.number));
    if (scene.content.correct !== undefined)
      add("numberRight", numberCorrect(scene.content, a.number) ? "right" : "wrong");
  }
}

/** Each blank's right count and its most common wrong answers (most first, then in text order). */
export function blankSummaries(counts: Counts, blanks: number) {
  return Array.from({ length: blanks }, (_, i) => ({
    right: counts.blankRight?.[String(i)] ?? 0,
    wrong: Object.entries(counts[`blank${i}`] ?? {})
      .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
      .slice(0, TOP_WRONG),
  }));
}
