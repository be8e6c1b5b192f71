/**
 * The readings of the bundled library and the templates (prisma/content), written and checked by hand for the
 * school's own texts, against what the automatic furigana proposes for the same texts with the readings taken out:
 * school texts, where the reading corpus (furigana-corpus.test.ts) is Wikipedia's and the news'.
 */
import { describe, expect, it } from "vitest";
import { tokenizeMarkup } from "@/features/activities/server/furigana-tokenizer";
import { readLibraryFiles } from "@/features/activities/server/library-bundle";
import { readTemplateFiles } from "@/features/activities/server/template-load";
import { toHiragana } from "@/features/activities/shared/furigana-align";
import { proposeFurigana, type Proposal } from "@/features/activities/shared/furigana-propose";
import { stringsOf, withoutRuby } from "@/features/activities/shared/furigana-words";

type PlainRuby = ReturnType<typeof withoutRuby>["rubies"][number];

/** The hand-written reading of [start, end) when rubies side by side cover exactly that stretch, else null. */
function writtenOver(rubyAt: Map<number, PlainRuby>, start: number, end: number): string | null {
  let reading = "";
  let at = start;
  for (let ruby = rubyAt.get(at); ruby && at < end; ruby = rubyAt.get(at)) {
    reading += ruby.reading;
    at = ruby.end;
  }
  return at === end ? reading : null;
}

/**
 * The proposals and the hand-written rubies paired where both start and end together: one proposal and one ruby
 * (正しく ただ), or several side by side on either hand (行目 as 行 and 目). A proposal that starts where no ruby does
 * (20歳 はたち over the digits), or a ruby over kana that has no proposal (沖ノ鳥島 over ノ), is left out.
 */
function paired(proposals: Proposal[], rubies: PlainRuby[]) {
  const rubyAt = new Map(rubies.map((r) => [r.start, r]));
  const pairs: { base: string; proposed: string; written: string; marked: boolean }[] = [];
  for (let i = 0; i < proposals.length; i++) {
    // the proposals from i on, side by side, until their end is a ruby's end too
    for (let j = i; j < proposals.length && (j === i || proposals[j]!.start === proposals[j - 1]!.end); j++) {
      const written = writtenOver(rubyAt, proposals[i]!.start, proposals[j]!.end);
      if (written === null) continue;
      const run = proposals.slice(i, j + 1);
      const text = (key: "base" | "reading") => run.map((p) => p[key]).join("");
      pairs.push({ base: text("base"), proposed: text("reading"), written, marked: run.some((p) => p.check) });
      i = j;
      break;
    }
  }
  return pairs;
}

/** Each reading the proposer gives otherwise than the file: "file: base=proposed? (written)", and how many it compared. */
async function differences(files: { id: string }[]) {
  const differ: string[] = [];
  let compared = 0;
  for (const file of files) {
    for (const text of stringsOf(file)) {
      // as the editor asks for a text a teacher wrote readings in: the markup without its rubies (furigana-words.ts)
      const { plain, rubies } = withoutRuby(text);
      if (rubies.length === 0) continue;
      for (const pair of paired(proposeFurigana(plain, await tokenizeMarkup(plain)), rubies)) {
        compared++;
        if (toHiragana(pair.proposed) !== toHiragana(pair.written))
          differ.push(`${file.id}: ${pair.base}=${pair.proposed}${pair.marked ? "?" : ""} (${pair.written})`);
      }
    }
  }
  return { differ, compared };
}

describe("the readings of the school's own texts", () => {
  it("the bundled library's are the proposer's, but for two it marks 「要確認」", async () => {
    const { differ, compared } = await differences(await readLibraryFiles());
    expect(compared).toBeGreaterThan(1_000);
    // a sign the analyser took for a name (積は正、 ただし), a verb it took for a noun (一つ書き がき)
    expect(differ).toEqual(["e4-japanese-proverbs: 書=が? (か)", "j1-math-integers: 正=ただし? (せい)"]);
  });
  it("the templates' are the proposer's", async () => {
    const { differ, compared } = await differences(await readTemplateFiles());
    expect(compared).toBeGreaterThan(100);
    expect(differ).toEqual([]);
  });
});
