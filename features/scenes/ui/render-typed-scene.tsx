import type { DisplayLanguage } from "@/platform/i18n/languages";
import { toPlainText } from "@/platform/richtext/plain";
import { blanksOf, textParts } from "@/features/scenes/shared/fill-blanks";
import { WORD_LIMITS } from "@/features/scenes/shared/word-cloud";
import type { Scene } from "@/features/scenes/shared/schema";
import type { RenderedScene, RenderText } from "./types";

/**
 * Fill-in-the-blanks, number and word cloud scenes rendered (render-scene-core.tsx `renderSceneWith`): the key (accepted
 * answers, the correct number) only when `key` is asked for, in the display language.
 */
export function renderAnswerTyped(
  id: string,
  scene: Scene,
  lang: DisplayLanguage,
  rich: RenderText,
  key: boolean,
): RenderedScene {
  switch (scene.type) {
    case "fill_blanks": {
      const base = { id, type: "fill_blanks" as const, prompt: rich(scene.content.prompt) };
      const parts = textParts(scene.content.text).map((p) => rich(p));
      const answers = blanksOf(scene.content.text).map((list) => list.map((a) => toPlainText(a, lang)));
      return key ? { ...base, parts, answers } : { ...base, parts };
    }
    case "number": {
      const { prompt, unit, correct, tolerance = 0 } = scene.content;
      const base = { id, type: "number" as const, prompt: rich(prompt), unit: unit ? toPlainText(unit, lang) : null };
      return key && correct !== undefined ? { ...base, correct: { value: correct, tolerance } } : base;
    }
    case "word_cloud":
      return {
        id,
        type: "word_cloud",
        prompt: rich(scene.content.prompt),
        maxWords: scene.content.maxWords ?? WORD_LIMITS.words,
      };
    default:
      throw new Error(`not an answer-typed scene: ${scene.type}`);
  }
}
