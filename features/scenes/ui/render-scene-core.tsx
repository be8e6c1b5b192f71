import type { DisplayLanguage } from "@/platform/i18n/languages";
import { parseRichText, type RichNode } from "@/platform/richtext/parse";
import { nodesToPlainText, toPlainText } from "@/platform/richtext/plain";
import { imageUrl } from "@/features/scenes/shared/image-limits";
import { type ImageRef, type Scene, sceneSchema } from "@/features/scenes/shared/schema";
import { shuffledFor } from "@/features/scenes/shared/ordering";
import { matchingKey, pairsOf } from "@/features/scenes/shared/matching";
import type { RenderedImage, RenderedOption, RenderedScene, RenderText } from "./types";
import { renderAnswerTyped } from "./render-typed-scene";

/** Where a page loads a placed image from: the signed-in image route, or the projector link's own. */
export type ImageSrc = (id: string) => string;

/** A placed image with its alt text in the display language (alt may carry ruby, like any content text). */
const imageOf = (image: ImageRef | undefined, lang: DisplayLanguage, src: ImageSrc): RenderedImage | undefined =>
  image
    ? { src: src(image.id), alt: toPlainText(image.alt, lang), width: image.width, height: image.height }
    : undefined;
const withImage = <T extends object>(base: T, image: RenderedImage | undefined): T =>
  image ? { ...base, image } : base;

const hasMath = (nodes: RichNode[]): boolean =>
  nodes.some((n) => n.type === "math" || ("children" in n && hasMath(n.children)));
/** Options; one with a formula also gets its plain text as the control's name (axe reads no name from MathML). */
type StoredOption = { id: string; label: string; correct?: boolean; image?: ImageRef };
const optionsOf = (
  list: StoredOption[],
  lang: DisplayLanguage,
  rich: RenderText,
  key: boolean,
  src: ImageSrc,
): RenderedOption[] =>
  list.map((o) => {
    const nodes = parseRichText(o.label);
    const labelled: RenderedOption = hasMath(nodes)
      ? { id: o.id, label: rich(o.label), name: nodesToPlainText(nodes, lang) }
      : { id: o.id, label: rich(o.label) };
    const base = withImage(labelled, imageOf(o.image, lang, src));
    return key && o.correct ? { ...base, correct: true } : base;
  });

/**
 * A stored scene's texts rendered with `rich` (one renderer for preview, solo, session, response and the editor).
 * Correct flags are left out unless `key` is asked for (staff previews; a respondent's page never asks).
 * Images load from the signed-in image route unless `imageSrc` names another (the projector's link).
 * An ordering's items are shuffled by `seed` (the respondent's id: each student their own order; else the scene's).
 */
export function renderSceneWith(
  stored: { id: string; type: string; content: unknown },
  lang: DisplayLanguage,
  rich: RenderText,
  { key = false, imageSrc = imageUrl, seed = "" }: { key?: boolean; imageSrc?: ImageSrc; seed?: string } = {},
): RenderedScene | null {
  const parsed = sceneSchema.safeParse({ type: stored.type, content: stored.content });
  if (!parsed.success) return null;
  const scene: Scene = parsed.data;
  const opts = (list: StoredOption[]) => optionsOf(list, lang, rich, key, imageSrc);
  const rendered =
    scene.type === "ordering" || scene.type === "matching"
      ? renderKeyed(stored.id, scene, lang, rich, opts, { key, seed: `${seed}:${stored.id}` })
      : (renderParsed(stored.id, scene, lang, rich, opts) ?? renderAnswerTyped(stored.id, scene, lang, rich, key));
  return withImage(rendered, imageOf(scene.content.image, lang, imageSrc));
}

/** An ordering (its items shuffled by `seed`) or a matching; the key only when asked for. */
function renderKeyed(
  id: string,
  scene: Extract<Scene, { type: "ordering" | "matching" }>,
  lang: DisplayLanguage,
  rich: RenderText,
  opts: (list: StoredOption[]) => RenderedOption[],
  { key, seed }: { key: boolean; seed: string },
): RenderedScene {
  const prompt = rich(scene.content.prompt);
  if (scene.type === "ordering") {
    const items = opts(shuffledFor(scene.content.items, seed));
    return { id, type: "ordering", prompt, items, key: key ? scene.content.items.map((i) => i.id) : null };
  }
  const { left, right } = scene.content;
  return {
    id,
    type: "matching",
    prompt,
    // a left item's `correct` is its right id (the key), left out here
    left: opts(left.map(({ correct: _, ...l }) => l)),
    right: opts(right).map((r, i) => ({ ...r, text: toPlainText(right[i]!.label, lang) })),
    key: key ? pairsOf(matchingKey(scene.content)) : null,
  };
}

function renderParsed(
  id: string,
  scene: Exclude<Scene, { type: "ordering" | "matching" }>,
  lang: DisplayLanguage,
  rich: RenderText,
  opts: (list: StoredOption[]) => RenderedOption[],
): RenderedScene | null {
  switch (scene.type) {
    case "info":
      return {
        id,
        type: "info",
        prompt: rich(scene.content.prompt),
        body: scene.content.body ? rich(scene.content.body) : null,
      };
    case "single_choice":
      return { id, type: "single_choice", prompt: rich(scene.content.prompt), options: opts(scene.content.options) };
    case "multiple_choice":
      return {
        id,
        type: "multiple_choice",
        prompt: rich(scene.content.prompt),
        options: opts(scene.content.options),
        min: scene.content.min ?? 0,
        max: scene.content.max ?? scene.content.options.length,
      };
    case "free_text":
      return {
        id,
        type: "free_text",
        prompt: rich(scene.content.prompt),
        placeholder: scene.content.placeholder ? toPlainText(scene.content.placeholder, lang) : null,
        maxLength: scene.content.maxLength ?? null,
      };
    case "drawing":
      return {
        id,
        type: "drawing",
        prompt: rich(scene.content.prompt),
        instructions: scene.content.instructions ? rich(scene.content.instructions) : null,
        onImage: Boolean(scene.content.onImage && scene.content.image),
      };
    case "scale":
      return {
        id,
        type: "scale",
        prompt: rich(scene.content.prompt),
        minLabel: rich(scene.content.minLabel),
        maxLabel: rich(scene.content.maxLabel),
      };
    case "two_step": {
      const c = scene.content;
      const secondOptions: Record<string, RenderedOption[]> = {};
      if (c.second.options) secondOptions["*"] = opts(c.second.options);
      for (const [first, list] of Object.entries(c.second.optionsByFirst ?? {})) secondOptions[first] = opts(list);
      return {
        id,
        type: "two_step",
        prompt: rich(c.prompt),
        firstPrompt: rich(c.first.prompt),
        firstOptions: opts(c.first.options),
        secondPrompt: rich(c.second.prompt),
        secondOptions,
        reasonPrompt: rich(c.reasonPrompt),
      };
    }
    default:
      return null;
  }
}
