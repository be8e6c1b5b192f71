import { z } from "zod";
import { drawingAnswerSchema } from "@/features/scenes/shared/drawing-schema";
import { MAX_ALT_LENGTH, MAX_IMAGE_EDGE } from "@/features/scenes/shared/image-limits";
import { matchingAnswerSchema, MATCH_REQUIRED } from "@/features/scenes/shared/matching";
import { orderingAnswerSchema } from "@/features/scenes/shared/ordering";
import { checkBlanks, blanksOf, fillBlanksAnswerSchema } from "@/features/scenes/shared/fill-blanks";
import { NUMBER_LIMITS, numberValue } from "@/features/scenes/shared/number-answer";
import { WORD_LIMITS, wordCloudAnswerSchema } from "@/features/scenes/shared/word-cloud";

/**
 * Scene content and answer schemas for the twelve scene types (docs/product-design.md
 * "Activities"). Texts are rich-text markup (platform/richtext). Content is stored
 * as JSON in activity_scenes.content / template_scenes.content; answers as
 * JSON in responses.answer, validated against the scene's content.
 */
export const SCENE_TYPES = [
  "info",
  "single_choice",
  "multiple_choice",
  "free_text",
  "scale",
  "two_step",
  "drawing",
  "ordering",
  "matching",
  "fill_blanks",
  "number",
  "word_cloud",
] as const;
export type SceneType = (typeof SCENE_TYPES)[number];

const text = z.string().trim().min(1).max(4000);
/** The alt text's message key when it is missing (the editor and the server refuse an image without it). */
export const ALT_REQUIRED = "altRequired";
const edge = z.number().int().min(1).max(MAX_IMAGE_EDGE);
/**
 * An image placed in content (features/scenes/README.md "Images"): by id, never by scene, so a
 * scene's content can be copied (duplicate, versions) and still show it. Width and height are
 * the stored image's (the server writes them), for the page's layout; `alt` is required text.
 */
export const imageRefSchema = z.object({
  id: z.uuid(),
  alt: z.string().trim().min(1, ALT_REQUIRED).max(MAX_ALT_LENGTH),
  width: edge,
  height: edge,
});
export type ImageRef = z.infer<typeof imageRefSchema>;
const image = { image: imageRefSchema.optional() };

const optionId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, "option ids are short lower-case keys");
/**
 * An option; `correct` marks it as (one of) the right answer(s) (docs/product-design.md
 * "Activities", correct answers). Optional: content without it has no key and is never marked.
 * A student never receives it before feedback is allowed (features/scenes/shared/key.ts `withoutKey`).
 */
export const optionSchema = z.object({ id: optionId, label: text, correct: z.boolean().optional(), ...image });
const options = z
  .array(optionSchema)
  .min(2)
  .max(12)
  .refine((list) => new Set(list.map((o) => o.id)).size === list.length, "option ids must be unique");

export const infoContent = z.object({ prompt: text, ...image, body: text.optional() });
export const singleChoiceContent = z.object({ prompt: text, ...image, options });
export const multipleChoiceContent = z
  .object({
    prompt: text,
    ...image,
    options,
    min: z.number().int().min(0).optional(),
    max: z.number().int().min(1).optional(),
  })
  .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, "min must not exceed max")
  .refine((c) => c.max === undefined || c.max <= c.options.length, "max must not exceed the option count");
export const freeTextContent = z.object({
  prompt: text,
  ...image,
  placeholder: z.string().max(200).optional(),
  maxLength: z.number().int().min(1).max(10000).optional(),
});
export const scaleContent = z.object({ prompt: text, ...image, minLabel: text, maxLabel: text });
export const twoStepContent = z
  .object({
    prompt: text,
    ...image,
    first: z.object({ prompt: text, options }),
    second: z.object({
      prompt: text,
      options: options.optional(),
      /** Options that depend on the first choice (keyed by first option id). */
      optionsByFirst: z.record(optionId, options).optional(),
    }),
    reasonPrompt: text,
  })
  .refine((c) => c.second.options !== undefined || c.second.optionsByFirst !== undefined, {
    message: "the second step needs options or optionsByFirst",
  })
  .refine(
    (c) =>
      c.second.optionsByFirst === undefined ||
      c.second.options !== undefined ||
      c.first.options.every((o) => c.second.optionsByFirst?.[o.id] !== undefined),
    { message: "optionsByFirst must cover every first option (or give default options)" },
  );

/**
 * Drawing: the student draws on a canvas (features/scenes); `instructions` under the prompt. `onImage`: the
 * scene's image is the canvas's background (a worksheet's page to write on) instead of a picture above it.
 */
export const drawingContent = z.object({
  prompt: text,
  ...image,
  instructions: text.optional(),
  onImage: z.boolean().optional(),
});

/** 並べ替え and 線でつなぐ: 2–8 items, each a label (and an image). */
const item = z.object({ id: optionId, label: text, ...image });
const items = <T extends z.ZodType<{ id: string }>>(one: T) =>
  z
    .array(one)
    .min(2)
    .max(8)
    .refine((list) => new Set(list.map((o) => o.id)).size === list.length, "item ids must be unique");

/** 並べ替え: `items` in the right order (the key); a student sees them shuffled (features/scenes/shared/ordering.ts). */
export const orderingContent = z.object({ prompt: text, ...image, items: items(item) });

/**
 * 線でつなぐ: each left item's `correct` names the right item it goes with (the key; taken out with the options'
 * flags, key.ts `withoutKey`, so a respondent's copy is valid without it; the editor requires it,
 * features/activities/shared/scene-schema.ts). Several left items may go with the same right item; a right item
 * may go with none.
 */
export const matchingContent = z
  .object({
    prompt: text,
    ...image,
    left: items(item.extend({ correct: optionId.optional() })),
    right: items(item),
  })
  .superRefine((c, ctx) => {
    c.left.forEach((l, i) => {
      if (l.correct !== undefined && !c.right.some((r) => r.id === l.correct))
        ctx.addIssue({ code: "custom", path: ["left", i, "correct"], message: MATCH_REQUIRED });
    });
  });
/** Fill in the blanks: `text` holds the blanks (features/scenes/shared/fill-blanks.ts). */
export const fillBlanksContent = z
  .object({ prompt: text, ...image, text })
  .superRefine((c, ctx) => checkBlanks(c.text, ctx, ["text"]));

/** Number: `correct` (the key) within ± `tolerance`; `unit` shown after the input (number-answer.ts). */
export const numberContent = z.object({
  prompt: text,
  ...image,
  unit: z.string().trim().min(1).max(NUMBER_LIMITS.unitLength).optional(),
  correct: numberValue.optional(),
  tolerance: z.number().finite().min(0).max(NUMBER_LIMITS.abs).optional(),
});

/** Word cloud: each student sends 1 to `maxWords` (default 3) short words (word-cloud.ts); no key. */
export const wordCloudContent = z.object({
  prompt: text,
  ...image,
  maxWords: z.number().int().min(1).max(WORD_LIMITS.words).optional(),
});

export const sceneContentSchemas = {
  info: infoContent,
  single_choice: singleChoiceContent,
  multiple_choice: multipleChoiceContent,
  free_text: freeTextContent,
  scale: scaleContent,
  two_step: twoStepContent,
  drawing: drawingContent,
  ordering: orderingContent,
  matching: matchingContent,
  fill_blanks: fillBlanksContent,
  number: numberContent,
  word_cloud: wordCloudContent,
} as const;

export type SceneContent<T extends SceneType = SceneType> = z.infer<(typeof sceneContentSchemas)[T]>;

export const sceneSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("info"), content: infoContent }),
  z.object({ type: z.literal("single_choice"), content: singleChoiceContent }),
  z.object({ type: z.literal("multiple_choice"), content: multipleChoiceContent }),
  z.object({ type: z.literal("free_text"), content: freeTextContent }),
  z.object({ type: z.literal("scale"), content: scaleContent }),
  z.object({ type: z.literal("two_step"), content: twoStepContent }),
  z.object({ type: z.literal("drawing"), content: drawingContent }),
  z.object({ type: z.literal("ordering"), content: orderingContent }),
  z.object({ type: z.literal("matching"), content: matchingContent }),
  z.object({ type: z.literal("fill_blanks"), content: fillBlanksContent }),
  z.object({ type: z.literal("number"), content: numberContent }),
  z.object({ type: z.literal("word_cloud"), content: wordCloudContent }),
]);
export type Scene = z.infer<typeof sceneSchema>;

/** The second-step options a student sees after choosing `firstId`. */
export function secondOptionsFor(content: SceneContent<"two_step">, firstId: string) {
  return content.second.optionsByFirst?.[firstId] ?? content.second.options ?? [];
}

/** Error message key used when a two-step reason is blank (docs/requirements.md §5 'required input'). */
export const REQUIRED_INPUT = "requiredInput";
/** Error message key of text PostgreSQL cannot store (see `answerText`). */
export const INVALID_CHARACTERS = "invalidCharacters";

/** Well-formed UTF-16 without NUL: no lone surrogate (not Unicode; jsonb refuses its escape) and no U+0000 (text and jsonb refuse it). */
const STORABLE_TEXT = /^(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/;

/** Whether PostgreSQL can store `s` as text and in jsonb (see STORABLE_TEXT). */
export const isStorableText = (s: string) => STORABLE_TEXT.test(s);

/** Text typed into an answer, checked as PostgreSQL will store it: at most `max` characters (UTF-16 units), storable. */
export function answerText(max: number) {
  return z.string().max(max).refine(isStorableText, { message: INVALID_CHARACTERS });
}

const ids = (list: { id: string }[]) => list.map((o) => o.id) as [string, ...string[]];

/** The zod schema of an answer to `scene` (option ids are checked against its content). */
export function answerSchemaFor(scene: Scene) {
  switch (scene.type) {
    case "info":
      return z.object({ seen: z.literal(true) }).strict();
    case "single_choice":
      return z.object({ choice: z.enum(ids(scene.content.options)) }).strict();
    case "multiple_choice": {
      const { min = 0, max = scene.content.options.length } = scene.content;
      return z
        .object({
          choices: z
            .array(z.enum(ids(scene.content.options)))
            .min(min)
            .max(max),
        })
        .strict()
        .refine((a) => new Set(a.choices).size === a.choices.length, "choices must be distinct");
    }
    case "free_text":
      return z.object({ text: answerText(scene.content.maxLength ?? 10000) }).strict();
    case "scale":
      return z.object({ value: z.number().int().min(1).max(5) }).strict();
    case "drawing":
      return drawingAnswerSchema;
    case "ordering":
      return orderingAnswerSchema(scene.content);
    case "matching":
      return matchingAnswerSchema(scene.content);
    case "fill_blanks":
      return fillBlanksAnswerSchema(blanksOf(scene.content.text).length, answerText);
    case "number":
      return z.object({ number: numberValue }).strict();
    case "word_cloud":
      return wordCloudAnswerSchema(scene.content.maxWords ?? WORD_LIMITS.words, answerText);
    case "two_step": {
      const content = scene.content;
      return z
        .object({
          first: z.enum(ids(content.first.options)),
          second: z.string(),
          reason: answerText(4000),
        })
        .strict()
        .superRefine((a, ctx) => {
          if (!secondOptionsFor(content, a.first).some((o) => o.id === a.second)) {
            ctx.addIssue({ code: "custom", path: ["second"], message: "invalid second choice" });
          }
          if (a.reason.trim() === "") {
            ctx.addIssue({ code: "custom", path: ["reason"], message: REQUIRED_INPUT });
          }
        });
    }
  }
}

export type Answer = z.infer<ReturnType<typeof answerSchemaFor>>;
