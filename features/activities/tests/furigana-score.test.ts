import { describe, expect, it } from "vitest";
import type { Proposal } from "@/features/activities/shared/furigana-propose";
import { scoreSentence } from "@/features/activities/tests/corpus/score";

/** Proposals for the kanji runs of `text`, one per run, read as given. */
function proposals(text: string, readings: string[]): Proposal[] {
  const runs = [...text.matchAll(/[\p{Script=Han}々]+/gu)];
  return runs.map((m, i) => ({
    start: m.index,
    end: m.index + m[0].length,
    base: m[0],
    reading: readings[i]!,
    word: m[0],
    source: "dictionary",
    check: false,
  }));
}
const score = (text: string, kana: string, readings: string[]) =>
  scoreSentence({ id: "test", text, kana }, proposals(text, readings));

describe("the corpus score compares readings as they are said", () => {
  it("a long vowel the corpus writes as the vowel (構成 こおせい) or as ー is the dictionary's う or い", () => {
    expect(score("構成を変える。", "こおせいおかえる", ["こうせい", "か"])).toMatchObject({ words: 2, right: 2 });
    expect(score("先生が来た。", "せんせーがきた", ["せんせい", "き"])).toMatchObject({ words: 2, right: 2 });
  });
  it("a reading the corpus does not say is wrong, and the run is named with both readings", () => {
    const got = score("魚市場に行く。", "さかないちばにいく", ["うおいちば", "い"]);
    expect(got).toMatchObject({ words: 2, right: 1, wrong: [{ base: "魚市場=さかないちば", proposed: "うおいちば" }] });
  });
  it("the text's own kana lengthen nothing across a word (て|行く is ていく, never てえく)", () => {
    expect(score("見て行く。", "みていく", ["み", "い"])).toMatchObject({ right: 2 });
    expect(score("見て行く。", "みてえく", ["み", "い"]).right).toBeLessThan(2);
  });
  it("日本 にほん or にっぽん, 後 あと or のち, 他 ほか or た, 良 よ or い: either counts, any other reading does not", () => {
    expect(score("日本代表", "にっぽんだいひょー", ["にほんだいひょう"])).toMatchObject({ right: 1 });
    expect(score("切った後は", "きったのちわ", ["き", "あと"])).toMatchObject({ right: 2 });
    expect(score("その他、", "そのほか", ["た"])).toMatchObject({ right: 1 });
    expect(score("良い", "いい", ["よ"])).toMatchObject({ right: 1 });
    expect(score("日本代表", "にっぽんだいひょー", ["やまとだいひょう"])).toMatchObject({ right: 0 });
    expect(score("午後", "ごご", ["ごのち"])).toMatchObject({ right: 0 });
  });
});
