import { describe, expect, it } from "vitest";
import { parseActivityFile, toActivityFile } from "@/features/activities/shared/file-format";
import { sceneSchema } from "@/features/scenes/shared/schema";
import {
  correctIdsOf,
  feedbackAllowed,
  feedbackFor,
  sceneHasKey,
  verdictOf,
  withoutKey,
} from "@/features/scenes/shared/key";
import { markCorrect } from "@/features/scenes/ui/mark-correct";
import { renderSceneWith } from "@/features/scenes/ui/render-scene-core";

const opt = (id: string, correct?: boolean) => (correct ? { id, label: id, correct } : { id, label: id });
const single = sceneSchema.parse({
  type: "single_choice",
  content: { prompt: "q", options: [opt("a"), opt("b", true), opt("c")] },
});
const multi = sceneSchema.parse({
  type: "multiple_choice",
  content: { prompt: "q", options: [opt("a", true), opt("b"), opt("c", true)] },
});
const pair = sceneSchema.parse({
  type: "two_step",
  content: {
    prompt: "q",
    first: { prompt: "f", options: [opt("out", true), opt("burn")] },
    second: {
      prompt: "s",
      optionsByFirst: { out: [opt("oxygen", true), opt("co2")], burn: [opt("air"), opt("wick")] },
    },
    reasonPrompt: "r",
  },
});

describe("correct answers in scene content", () => {
  it("are kept by the stored schema, and content without them stays valid", () => {
    expect(single.type === "single_choice" && single.content.options[1]).toEqual({
      id: "b",
      label: "b",
      correct: true,
    });
    expect(
      sceneSchema.safeParse({ type: "single_choice", content: { prompt: "q", options: [opt("a"), opt("b")] } }).success,
    ).toBe(true);
    expect(
      sceneSchema.safeParse({
        type: "single_choice",
        content: { prompt: "q", options: [{ id: "a", label: "a", correct: "yes" }, opt("b")] },
      }).success,
    ).toBe(false);
    expect(sceneHasKey(single)).toBe(true);
    expect(
      sceneHasKey(sceneSchema.parse({ type: "scale", content: { prompt: "q", minLabel: "a", maxLabel: "b" } })),
    ).toBe(false);
  });

  it("give a verdict on single, multiple and two-step answers (null without a key)", () => {
    expect(verdictOf(single, { choice: "b" })).toBe("correct");
    expect(verdictOf(single, { choice: "a" })).toBe("incorrect");
    expect(verdictOf(multi, { choices: ["c", "a"] })).toBe("correct");
    expect(verdictOf(multi, { choices: ["a"] })).toBe("incorrect");
    expect(verdictOf(multi, { choices: ["a", "b", "c"] })).toBe("incorrect");
    expect(verdictOf(pair, { first: "out", second: "oxygen", reason: "x" })).toBe("correct");
    expect(verdictOf(pair, { first: "out", second: "co2", reason: "x" })).toBe("incorrect");
    expect(verdictOf(pair, { first: "burn", second: "air", reason: "x" })).toBe("incorrect");
    expect(verdictOf(withoutKey(single), { choice: "b" })).toBeNull();
    expect(verdictOf(single, { text: "b" })).toBe("incorrect");
    expect(verdictOf(single, null)).toBeNull();
  });

  it("name the correct options to show after feedback is allowed", () => {
    expect(correctIdsOf(single)).toEqual(["b"]);
    expect(correctIdsOf(pair)).toEqual(["out", "oxygen"]);
  });

  it("are stripped everywhere by withoutKey, and a student's rendered scene never holds them", () => {
    for (const scene of [single, multi, pair]) {
      expect(JSON.stringify(withoutKey(scene))).not.toContain("correct");
      const rendered = renderSceneWith({ id: "s", ...scene }, "ja", (t) => t);
      expect(JSON.stringify(rendered)).not.toContain("correct");
    }
    const staff = renderSceneWith({ id: "s", ...single }, "ja", (t) => t, { key: true });
    expect(staff?.type === "single_choice" && staff.options.map((o) => o.correct ?? false)).toEqual([
      false,
      true,
      false,
    ]);
  });

  it("travel in an exported activity file and back", () => {
    const file = toActivityFile({ title: "t", actorType: "student", scenes: [{ id: "x", ...pair }], sceneOrders: [] });
    const parsed = parseActivityFile(new TextEncoder().encode(JSON.stringify(file)));
    expect(parsed.ok && parsed.file.scenes[0]).toEqual({ id: "s1", ...pair });
  });
});

describe("feedback timing", () => {
  it("never shows verdicts with 'never', at the end only once complete or finished, after each answer always", () => {
    for (const p of [
      { complete: true, finished: true },
      { complete: false, finished: false },
    ])
      expect(feedbackAllowed("never", p)).toBe(false);
    expect(feedbackAllowed("at_end", { complete: false, finished: false })).toBe(false);
    expect(feedbackAllowed("at_end", { complete: false, finished: true })).toBe(true);
    expect(feedbackAllowed("at_end", { complete: true, finished: false })).toBe(true);
    expect(feedbackAllowed("after_answer", { complete: false, finished: false })).toBe(true);
  });

  it("gives verdicts only for answered scenes with a key, and marks their correct options", () => {
    const scale = sceneSchema.parse({ type: "scale", content: { prompt: "q", minLabel: "a", maxLabel: "b" } });
    const out = feedbackFor(
      [
        { id: "1", scene: single },
        { id: "2", scene: pair },
        { id: "3", scene: scale },
        { id: "4", scene: multi },
        { id: "5", scene: null },
      ],
      {
        "1": { choice: "a" },
        "2": { first: "out", second: "oxygen", reason: "r" },
        "3": { value: 3 },
        "5": { choice: "a" },
      },
    );
    expect(out).toEqual({
      "1": { verdict: "incorrect", correct: ["b"] },
      "2": { verdict: "correct", correct: ["out", "oxygen"] },
    });
    const rendered = renderSceneWith({ id: "1", ...single }, "ja", (t) => t)!;
    const marked = markCorrect(rendered, out["1"]!.correct);
    expect(marked.type === "single_choice" && marked.options.map((o) => o.correct ?? false)).toEqual([
      false,
      true,
      false,
    ]);
    expect(markCorrect(rendered, undefined)).toBe(rendered);
  });
});
