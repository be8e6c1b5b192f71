import { describe, expect, it } from "vitest";
import { proposeFurigana } from "@/features/activities/shared/furigana-propose";
import { tokenizeMarkup } from "@/features/activities/server/furigana-tokenizer";
import { readCorpus, scoreSentence } from "@/features/activities/tests/corpus/score";

/**
 * The automatic furigana measured against JSUT's sentences with their readings (jsut-label, CC BY-SA 4.0:
 * tests/corpus/README.md). A kanji run is right when its proposed reading is the corpus's (scoreSentence
 * says how the two spellings are compared), a sentence when all its runs are. The development part and the
 * first held-out part are the ones the rules were written against (the held-out part from 2026-11-29 on);
 * the second held-out part was split off then and never read while writing them, so its figure is what a
 * teacher's text may expect. The floors are the last figures measured with the second dictionary,
 * each text paired with its own reading and the word rules of that day (the history is in features/activities/README.md); sentences whose kana do not line up with the corpus's at all (its own
 * spellings: むこう for 向こう) are left out and bounded.
 */
async function measure(file: "dev.tsv" | "held-out.tsv" | "held-out-2.tsv") {
  let words = 0;
  let right = 0;
  let sentences = 0;
  let allRight = 0;
  let unaligned = 0;
  for (const sentence of readCorpus(file)) {
    const score = scoreSentence(sentence, proposeFurigana(sentence.text, await tokenizeMarkup(sentence.text)));
    if (!score.aligned) {
      unaligned++;
      continue;
    }
    words += score.words;
    right += score.right;
    sentences++;
    if (score.right === score.words) allRight++;
  }
  return { words: (100 * right) / words, sentences: (100 * allRight) / sentences, unaligned, counted: sentences };
}

describe("furigana against a reading corpus", () => {
  it.each([
    ["development part (1,384 sentences)", "98.6", "94.6", "dev.tsv", 15],
    ["first held-out part (998 sentences)", "96.9", "79.6", "held-out.tsv", 35],
    ["second held-out part (2,360 sentences, never read)", "97.4", "88.8", "held-out-2.tsv", 40],
  ] as const)(
    "%s: at least %s% of kanji runs and %s% of sentences right",
    async (_part, words, sentences, file, unaligned) => {
      const got = await measure(file);
      expect(got.words).toBeGreaterThanOrEqual(Number(words));
      expect(got.sentences).toBeGreaterThanOrEqual(Number(sentences));
      expect(got.unaligned).toBeLessThanOrEqual(unaligned);
    },
    60_000,
  );
});
