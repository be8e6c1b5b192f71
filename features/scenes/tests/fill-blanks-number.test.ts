import { describe, expect, it } from "vitest";
import { parseActivityFile, toActivityFile } from "@/features/activities/shared/file-format";
import { draftErrors } from "@/features/activities/ui/scene-content";
import { foldAnswer } from "@/features/scenes/shared/answer-fold";
import { blanksOf, textParts } from "@/features/scenes/shared/fill-blanks";
import { feedbackFor, sceneHasKey, verdictOf, withoutKey } from "@/features/scenes/shared/key";
import { histogramOf, parseNumberInput } from "@/features/scenes/shared/number-answer";
import { answerSchemaFor, sceneSchema } from "@/features/scenes/shared/schema";
import { blankSummaries, type Counts, tallyTyped } from "@/features/scenes/shared/typed-results";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import { renderSceneWith } from "@/features/scenes/ui/render-scene-core";

const blanks = (text: string) => sceneSchema.safeParse({ type: "fill_blanks", content: { prompt: "q", text } });
const scene = blanks("首都は[[|東京(とうきょう)/江戸]]で、水は[[100]]度でふっとうします。").data!;
const number = (content: object) => sceneSchema.parse({ type: "number", content: { prompt: "q", ...content } });

describe("fill in the blanks", () => {
  it("reads each blank's accepted answers and the text around them", () => {
    expect(blanksOf("a[[x/ y ]]b[[z]]c")).toEqual([["x", "y"], ["z"]]);
    expect(textParts("a[[x/ y ]]b[[z]]c")).toEqual(["a", "b", "c"]);
  });

  it("refuses a text without blanks, with more than ten, or with an empty answer, naming the problem", () => {
    const errors = (text: string) => {
      const r = blanks(text);
      return r.success ? {} : draftErrors(r.error.issues);
    };
    expect(errors("no blank here")).toEqual({ "content.text": "blanksCount" });
    expect(errors("[[a]]".repeat(11))).toEqual({ "content.text": "blanksCount" });
    expect(errors("[[a/]]")).toEqual({ "content.text": "blankEmpty" });
    expect(errors(`[[${"x".repeat(101)}]]`)).toEqual({ "content.text": "blankEmpty" });
    expect(blanks("[[a]]".repeat(10)).success).toBe(true);
  });

  it("folds width, spaces, case and katakana, and accepts a ruby answer's reading", () => {
    expect(foldAnswer(" Ｔｏ ｋｙｏ　")).toBe("tokyo");
    expect(foldAnswer("トウキョウ")).toBe("とうきょう");
    expect(foldAnswer("ｶﾀｶﾅ")).toBe("かたかな");
    for (const typed of ["東京", "とうきょう", "トウキョウ", "ﾄｳｷｮｳ", " 東 京 ", "江戸"])
      expect(verdictOf(scene, { blanks: [typed, "１００"] })).toBe("correct");
    expect(verdictOf(scene, { blanks: ["えど", "100"] })).toBe("incorrect");
    expect(verdictOf(scene, { blanks: ["京都", "100"] })).toBe("incorrect");
    expect(verdictOf(scene, { blanks: ["東京", ""] })).toBe("incorrect");
    expect(sceneHasKey(scene)).toBe(true);
  });

  it("takes the answers out of what a respondent receives, and the render shows them only to staff", () => {
    const stripped = withoutKey(scene);
    expect(JSON.stringify(stripped)).not.toMatch(/東京|江戸|100/);
    const shown = renderSceneWith({ id: "x", ...stripped }, "ja", (t) => t);
    expect(shown).toMatchObject({ type: "fill_blanks", parts: ["首都は", "で、水は", "度でふっとうします。"] });
    expect(shown && "answers" in shown).toBe(false);
    const staff = renderSceneWith({ id: "x", ...scene }, "ja-kana", (t) => t, { key: true });
    expect(staff).toMatchObject({ answers: [["とうきょう", "江戸"], ["100"]] });
  });

  it("wants one text per blank, each at most 100 characters", () => {
    const schema = answerSchemaFor(scene);
    expect(schema.safeParse({ blanks: ["a", "b"] }).success).toBe(true);
    expect(schema.safeParse({ blanks: ["a"] }).success).toBe(false);
    expect(schema.safeParse({ blanks: ["a", "x".repeat(101)] }).success).toBe(false);
    expect(schema.safeParse({ blanks: ["a", "\u0000"] }).success).toBe(false);
  });

  it("counts per blank the right answers and the most common wrong ones, folded", () => {
    const counts: Counts = {};
    const add = (k: string, v: string) => ((counts[k] ??= {})[v] = (counts[k][v] ?? 0) + 1);
    for (const b of [
      ["東京", "100"],
      ["キョウト", "90"],
      ["きょうと", "100"],
      ["大阪", ""],
    ])
      tallyTyped(scene, { blanks: b }, add);
    expect(blankSummaries(counts, 2)).toEqual([
      {
        right: 1,
        wrong: [
          ["きょうと", 2],
          ["大阪", 1],
        ],
      },
      {
        right: 2,
        wrong: [
          ["", 1],
          ["90", 1],
        ],
      },
    ]);
  });
});

describe("number", () => {
  it("reads full-width digits, thousands separators, minus signs and decimals", () => {
    expect(parseNumberInput("１２３")).toBe(123);
    expect(parseNumberInput("1,234,567.5")).toBe(1234567.5);
    expect(parseNumberInput("１，２３４")).toBe(1234);
    expect(parseNumberInput("−3")).toBe(-3);
    expect(parseNumberInput("ー3.5")).toBe(-3.5);
    expect(parseNumberInput("－０．５")).toBe(-0.5);
    expect(parseNumberInput(" .5 ")).toBe(0.5);
    expect(parseNumberInput("+2")).toBe(2);
  });

  it("refuses what is not a number", () => {
    for (const s of [
      "",
      "abc",
      "1,23",
      "12,",
      "1.2.3",
      "1e5",
      "3cm",
      "--3",
      "１２あ",
      "Infinity",
      "0x10",
      "9".repeat(41),
    ])
      expect(parseNumberInput(s)).toBeNull();
  });

  it("marks within the absolute tolerance, and has no key without a correct value", () => {
    const s = number({ unit: "cm", correct: 12.5, tolerance: 0.5 });
    expect(verdictOf(s, { number: 12 })).toBe("correct");
    expect(verdictOf(s, { number: 13 })).toBe("correct");
    expect(verdictOf(s, { number: 13.01 })).toBe("incorrect");
    expect(verdictOf(number({ correct: 0.3 }), { number: 0.1 + 0.2 })).toBe("correct");
    expect(sceneHasKey(number({}))).toBe(false);
    expect(verdictOf(number({}), { number: 1 })).toBeNull();
    expect(JSON.stringify(withoutKey(s))).not.toContain("12.5");
  });

  it("refuses an answer that is not a finite number within the limits, and a negative tolerance", () => {
    const schema = answerSchemaFor(number({}));
    expect(schema.safeParse({ number: 3.5 }).success).toBe(true);
    expect(schema.safeParse({ number: "3" }).success).toBe(false);
    expect(schema.safeParse({ number: 1e13 }).success).toBe(false);
    expect(sceneSchema.safeParse({ type: "number", content: { prompt: "q", tolerance: -1 } }).success).toBe(false);
  });

  it("makes a histogram: a bar per value when few, ten ranges when many", () => {
    expect(histogramOf({ "2": 1, "1": 3 })).toEqual([
      { from: 1, to: 1, n: 3 },
      { from: 2, to: 2, n: 1 },
    ]);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [String(i), 1]));
    const bars = histogramOf(many);
    expect(bars).toHaveLength(10);
    expect(bars.reduce((a, b) => a + b.n, 0)).toBe(21);
  });
});

describe("feedback", () => {
  it("a respondent's feedback carries each blank's accepted answers (ruby kept) and the number with its tolerance, shown on their copy", () => {
    const n = number({ unit: "cm", correct: 12.5, tolerance: 0.5 });
    const fb = feedbackFor(
      [
        { id: "b", scene },
        { id: "n", scene: n },
        { id: "none", scene: number({}) },
      ],
      { b: { blanks: ["京都", "100"] }, n: { number: 13.2 }, none: { number: 1 } },
    );
    expect(fb).toEqual({
      b: { verdict: "incorrect", correct: ["|東京(とうきょう)/江戸", "100"] },
      n: { verdict: "incorrect", correct: ["12.5", "0.5"] },
    });
    // the respondent's copy has no key until feedback marks it
    const copy = (s: typeof scene | typeof n) => renderSceneWith({ id: "x", ...withoutKey(s) }, "ja", (t) => t)!;
    expect(markCorrect(copy(scene), fb.b!.correct)).toMatchObject({
      answers: [["|東京(とうきょう)", "江戸"], ["100"]],
    });
    expect(markCorrect(copy(n), fb.n!.correct)).toMatchObject({ unit: "cm", correct: { value: 12.5, tolerance: 0.5 } });
    expect(markCorrect(copy(n), undefined)).not.toHaveProperty("correct");
  });
});

describe("activity file", () => {
  it("round-trips both types", () => {
    const scenes = [
      { id: "u1", type: "fill_blanks", content: scene.content },
      { id: "u2", type: "number", content: { prompt: "q", unit: "kg", correct: 3, tolerance: 0.1 } },
    ];
    const file = toActivityFile({ title: "t", actorType: "student", scenes, sceneOrders: [] });
    const parsed = parseActivityFile(new TextEncoder().encode(JSON.stringify(file)));
    expect(parsed.ok && parsed.file.scenes.map((s) => s.content)).toEqual(scenes.map((s) => s.content));
  });
});
