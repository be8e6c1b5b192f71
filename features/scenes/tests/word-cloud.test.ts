import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseActivityFile, toActivityFile } from "@/features/activities/shared/file-format";
import { sceneHasKey, verdictOf } from "@/features/scenes/shared/key";
import { answerSchemaFor, sceneSchema } from "@/features/scenes/shared/schema";
import { tallyTyped } from "@/features/scenes/shared/typed-results";
import {
  groupWords,
  shownWords,
  WORD_EMPTY,
  WORD_TOO_LONG,
  wordKey,
  wordsToSend,
} from "@/features/scenes/shared/word-cloud";
import { renderSceneWith } from "@/features/scenes/ui/render-scene-core";

const cloud = (content: object = {}) => sceneSchema.parse({ type: "word_cloud", content: { prompt: "q", ...content } });
const problems = (scene: ReturnType<typeof cloud>, answer: unknown) => {
  const parsed = answerSchemaFor(scene).safeParse(answer);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe("word cloud answers", () => {
  it("takes one to maxWords words of at most 20 characters; empty and too long words are refused by name", () => {
    const scene = cloud({ maxWords: 2 });
    expect(problems(scene, { words: ["ねこ"] })).toEqual([]);
    expect(problems(scene, { words: ["ねこ", "いぬ"] })).toEqual([]);
    expect(problems(scene, { words: ["ねこ", "いぬ", "とり"] })).not.toEqual([]);
    expect(problems(scene, { words: [] })).toEqual([WORD_EMPTY]);
    expect(problems(scene, { words: ["  "] })).toEqual([WORD_EMPTY]);
    expect(problems(scene, { words: ["あ".repeat(20)] })).toEqual([]);
    expect(problems(scene, { words: ["あ".repeat(21)] })).toContain(WORD_TOO_LONG);
    expect(problems(scene, { words: ["\u0000"] })).not.toEqual([]);
    expect(problems(scene, { words: ["ネコ", "ねこ"] })).not.toEqual([]);
    expect(problems(scene, { text: "ねこ" })).not.toEqual([]);
  });

  it("sends the filled boxes tidied, a word typed twice once, nothing when every box is empty", () => {
    expect(wordsToSend(["  ねこ ", "", "い  ぬ"])).toEqual(["ねこ", "い ぬ"]);
    expect(wordsToSend(["ネコ", "ねこ", "ｎｅｋｏ", "neko"])).toEqual(["ネコ", "ｎｅｋｏ"]);
    expect(wordsToSend(["", "  ", "\u3000"])).toBeNull();
  });

  it("has no key, no verdict and renders its word count", () => {
    const scene = cloud({ maxWords: 1 });
    expect(sceneHasKey(scene)).toBe(false);
    expect(verdictOf(scene, { words: ["ねこ"] })).toBeNull();
    expect(renderSceneWith({ id: "x", ...scene }, "ja", (t) => t)).toMatchObject({ type: "word_cloud", maxWords: 1 });
    expect(renderSceneWith({ id: "x", ...cloud() }, "ja", (t) => t)).toMatchObject({ maxWords: 3 });
    expect(sceneSchema.safeParse({ type: "word_cloud", content: { prompt: "q", maxWords: 4 } }).success).toBe(false);
  });
});

describe("grouping", () => {
  it("folds width, case, spaces and katakana, and shows the most common spelling", () => {
    expect(wordKey("ＮＥＫＯ　ネコ")).toBe("nekoねこ");
    expect(
      groupWords([
        { word: "ネコ", n: 2 },
        { word: "ねこ", n: 3 },
        { word: "ｲﾇ", n: 1 },
        { word: "イヌ", n: 1 },
        { word: "Dog ", n: 1 },
        { word: "ｄｏｇ", n: 2 },
      ]),
    ).toEqual([
      { key: "ねこ", word: "ねこ", n: 5 },
      { key: "dog", word: "ｄｏｇ", n: 3 },
      { key: "いぬ", word: "イヌ", n: 2 },
    ]);
  });

  it("keeps the hidden groups out", () => {
    const groups = groupWords([
      { word: "ねこ", n: 1 },
      { word: "いぬ", n: 2 },
    ]);
    expect(shownWords(groups, ["ねこ"]).map((g) => g.word)).toEqual(["いぬ"]);
  });

  it("is a partition: every answer in exactly one group, keys distinct, the same groups in any order", () => {
    const alphabet = fc.constantFrom("ね", "ネ", "ﾈ", "こ", "コ", "a", "A", "ａ", " ", "\u3000", "1", "１", "犬");
    const word = fc.array(alphabet, { minLength: 1, maxLength: 6 }).map((a) => a.join(""));
    const spelling = fc.record({ word, n: fc.integer({ min: 1, max: 50 }) });
    fc.assert(
      fc.property(fc.array(spelling, { maxLength: 40 }), fc.integer(), (spellings, seed) => {
        const groups = groupWords(spellings);
        const counted = spellings.filter((s) => wordKey(s.word) !== "");
        expect(groups.reduce((a, g) => a + g.n, 0)).toBe(counted.reduce((a, s) => a + s.n, 0));
        expect(new Set(groups.map((g) => g.key)).size).toBe(groups.length);
        for (const g of groups) {
          expect(wordKey(g.word)).toBe(g.key);
          const own = counted.filter((s) => wordKey(s.word) === g.key);
          expect(g.n).toBe(own.reduce((a, s) => a + s.n, 0));
        }
        const shuffled = [...spellings].sort(() => (seed % 3) - 1);
        expect(groupWords(shuffled)).toEqual(groups);
        for (let i = 1; i < groups.length; i++) expect(groups[i - 1]!.n).toBeGreaterThanOrEqual(groups[i]!.n);
      }),
    );
  });

  it("counts each spelling for the statistics (grouped when shown)", () => {
    const seen: string[] = [];
    tallyTyped(cloud(), { words: [" ねこ ", "いぬ"] }, (key, value) => seen.push(`${key}:${value}`));
    expect(seen).toEqual(["words:ねこ", "words:いぬ"]);
  });
});

describe("activity file", () => {
  it("round-trips a word cloud", () => {
    const scenes = [{ id: "u1", type: "word_cloud", content: { prompt: "|水(みず)", maxWords: 2 } }];
    const file = toActivityFile({ title: "t", actorType: "student", scenes, sceneOrders: [] });
    const parsed = parseActivityFile(new TextEncoder().encode(JSON.stringify(file)));
    expect(parsed.ok && parsed.file.scenes.map((s) => [s.type, s.content])).toEqual([
      ["word_cloud", scenes[0]!.content],
    ]);
  });
});
