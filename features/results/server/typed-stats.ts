import "server-only";
import { verdictOf } from "@/features/scenes/shared/key";
import type { Scene } from "@/features/scenes/shared/schema";
import { type Counts, tallyTyped } from "@/features/scenes/shared/typed-results";
import type { CorrectRate } from "./correct-rate-queries";
import type { TypedAnswerRow } from "./stats-queries";

/**
 * A fill-in-the-blanks or number scene version's statistics from its answers (`rows`, already this version's):
 * the counts of features/scenes/shared/typed-results.ts and, when the scene has a key, the correct rate in all
 * and per counterbalance group, marked by key.ts `verdictOf` (the same rules as a respondent's feedback).
 */
export function typedStats(scene: Scene, rows: TypedAnswerRow[]): { counts: Counts; correct: CorrectRate | null } {
  const counts: Counts = {};
  const add = (key: string, value: string) => {
    counts[key] ??= {};
    counts[key][value] = (counts[key][value] ?? 0) + 1;
  };
  let keyed = false;
  const correct: CorrectRate = { all: { answered: 0, correct: 0 }, groups: {} };
  for (const row of rows) {
    tallyTyped(scene, row.answer, add);
    const verdict = verdictOf(scene, row.answer);
    if (verdict === null) continue;
    keyed = true;
    const group = (correct.groups[row.grp] ??= { answered: 0, correct: 0 });
    for (const count of [correct.all, group]) {
      count.answered++;
      if (verdict === "correct") count.correct++;
    }
  }
  return { counts, correct: keyed ? correct : null };
}
