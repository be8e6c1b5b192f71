import { describe, expect, it } from "vitest";
import {
  answerSchemaFor,
  REQUIRED_INPUT,
  type Scene,
  sceneSchema,
  secondOptionsFor,
} from "@/features/scenes/shared/schema";
import { readTemplateFiles } from "@/features/activities/server/template-load";

const twoStep: Scene = sceneSchema.parse({
  type: "two_step",
  content: {
    prompt: "q",
    first: {
      prompt: "f",
      options: [
        { id: "out", label: "消える" },
        { id: "burn", label: "燃える" },
      ],
    },
    second: {
      prompt: "s",
      optionsByFirst: {
        out: [
          { id: "oxygen", label: "a" },
          { id: "co2", label: "b" },
        ],
        burn: [
          { id: "air", label: "c" },
          { id: "wick", label: "d" },
        ],
      },
    },
    reasonPrompt: "r",
  },
});

describe("scene content schemas", () => {
  it("validate every shipped template", async () => {
    const templates = await readTemplateFiles();
    expect(templates.length).toBeGreaterThanOrEqual(3);
    const types = new Set(templates.flatMap((t) => t.scenes.map((s) => s.type)));
    expect([...types].sort()).toEqual(["free_text", "info", "multiple_choice", "scale", "single_choice", "two_step"]);
  });

  it("refuses duplicate option ids and a multiple-choice min above max", () => {
    expect(
      sceneSchema.safeParse({
        type: "single_choice",
        content: {
          prompt: "q",
          options: [
            { id: "a", label: "x" },
            { id: "a", label: "y" },
          ],
        },
      }).success,
    ).toBe(false);
    expect(
      sceneSchema.safeParse({
        type: "multiple_choice",
        content: {
          prompt: "q",
          options: [
            { id: "a", label: "x" },
            { id: "b", label: "y" },
          ],
          min: 2,
          max: 1,
        },
      }).success,
    ).toBe(false);
  });

  it("refuses a two-step scene whose dependent options miss a first choice", () => {
    const bad = {
      type: "two_step",
      content: {
        prompt: "q",
        first: {
          prompt: "f",
          options: [
            { id: "a", label: "x" },
            { id: "b", label: "y" },
          ],
        },
        second: {
          prompt: "s",
          optionsByFirst: {
            a: [
              { id: "c", label: "z" },
              { id: "d", label: "w" },
            ],
          },
        },
        reasonPrompt: "r",
      },
    };
    expect(sceneSchema.safeParse(bad).success).toBe(false);
  });
});

describe("answer schemas", () => {
  const schema = answerSchemaFor(twoStep);

  it("accept a complete two-step answer whose second choice depends on the first", () => {
    expect(schema.safeParse({ first: "out", second: "oxygen", reason: "酸素が減るから" }).success).toBe(true);
    expect(secondOptionsFor(twoStep.content as never, "burn").map((o) => o.id)).toEqual(["air", "wick"]);
  });

  it("refuse a second choice that belongs to the other first choice", () => {
    expect(schema.safeParse({ first: "out", second: "air", reason: "x" }).success).toBe(false);
  });

  it.each(["", "   ", "\n\t"])("refuse a blank reason (%j) with 'required input'", (reason) => {
    const result = schema.safeParse({ first: "out", second: "oxygen", reason });
    expect(result.success).toBe(false);
    expect(result.error?.issues.find((i) => i.path[0] === "reason")?.message).toBe(REQUIRED_INPUT);
  });

  it("check choices against the scene and ranges", () => {
    const single = answerSchemaFor({
      type: "single_choice",
      content: {
        prompt: "q",
        options: [
          { id: "a", label: "x" },
          { id: "b", label: "y" },
        ],
      },
    });
    expect(single.safeParse({ choice: "a" }).success).toBe(true);
    expect(single.safeParse({ choice: "z" }).success).toBe(false);
    const multi = answerSchemaFor({
      type: "multiple_choice",
      content: {
        prompt: "q",
        options: [
          { id: "a", label: "x" },
          { id: "b", label: "y" },
          { id: "c", label: "z" },
        ],
        min: 1,
        max: 2,
      },
    });
    expect(multi.safeParse({ choices: ["a", "b"] }).success).toBe(true);
    expect(multi.safeParse({ choices: [] }).success).toBe(false);
    expect(multi.safeParse({ choices: ["a", "b", "c"] }).success).toBe(false);
    expect(multi.safeParse({ choices: ["a", "a"] }).success).toBe(false);
    const scale = answerSchemaFor({ type: "scale", content: { prompt: "q", minLabel: "a", maxLabel: "b" } });
    expect(scale.safeParse({ value: 5 }).success).toBe(true);
    expect(scale.safeParse({ value: 6 }).success).toBe(false);
    expect(scale.safeParse({ value: 2.5 }).success).toBe(false);
    const text = answerSchemaFor({ type: "free_text", content: { prompt: "q", maxLength: 5 } });
    expect(text.safeParse({ text: "12345" }).success).toBe(true);
    expect(text.safeParse({ text: "123456" }).success).toBe(false);
    expect(text.safeParse({ text: "ok", extra: 1 }).success).toBe(false);
  });
});
