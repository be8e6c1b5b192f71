import type { ReactNode } from "react";
import type { DrawingAnswer } from "@/features/scenes/shared/drawing-limits";

/** How a text becomes markup: the server's <RichText> (render-scene.tsx) or the editor's live preview. */
export type RenderText = (text: string) => ReactNode;

/** An image placed in a scene or an option (features/scenes/README.md "Images"): its URL, alt text in the display language, and size. */
export interface RenderedImage {
  src: string;
  alt: string;
  width: number;
  height: number;
}

/** A scene with its texts already rendered (rich text and math on the server), ready for the client player. */
export interface RenderedOption {
  id: string;
  label: ReactNode;
  /** The control's name when the label holds a formula (its plain text: the TeX). */
  name?: string;
  image?: RenderedImage;
  /** Marked correct: only in staff previews and once feedback is allowed (features/scenes/shared/key.ts). */
  correct?: true;
}

export type RenderedScene = { id: string; image?: RenderedImage } & (
  | { type: "info"; prompt: ReactNode; body: ReactNode | null }
  | { type: "single_choice"; prompt: ReactNode; options: RenderedOption[] }
  | { type: "multiple_choice"; prompt: ReactNode; options: RenderedOption[]; min: number; max: number }
  | { type: "free_text"; prompt: ReactNode; placeholder: string | null; maxLength: number | null }
  | { type: "scale"; prompt: ReactNode; minLabel: ReactNode; maxLabel: ReactNode }
  | {
      type: "two_step";
      prompt: ReactNode;
      firstPrompt: ReactNode;
      firstOptions: RenderedOption[];
      secondPrompt: ReactNode;
      /** Second-step options per first choice ("*" when they do not depend on it). */
      secondOptions: Record<string, RenderedOption[]>;
      reasonPrompt: ReactNode;
    }
  | {
      type: "drawing";
      prompt: ReactNode;
      instructions: ReactNode | null;
      /** The scene's image is drawn on (the canvas's background), not shown above it. */
      onImage: boolean;
    }
  | {
      type: "ordering";
      prompt: ReactNode;
      /** Shuffled for the respondent (features/scenes/shared/ordering.ts `shuffledFor`). */
      items: RenderedOption[];
      /** The item ids in the right order: only in staff previews and once feedback is allowed. */
      key: string[] | null;
    }
  | {
      type: "matching";
      prompt: ReactNode;
      left: RenderedOption[];
      /** `text`: the label as plain text in the display language (a select's option holds no markup). */
      right: (RenderedOption & { text: string })[];
      /** Left id → right id by the key: only in staff previews and once feedback is allowed. */
      key: Record<string, string> | null;
    }
  | {
      type: "fill_blanks";
      prompt: ReactNode;
      /** The text around the blanks, rendered: one more part than there are blanks. */
      parts: ReactNode[];
      /**
       * Each blank's accepted answers: as plain text in staff previews, as markup (ruby drawn in the display language)
       * once feedback is allowed (features/scenes/shared/key.ts `correctIdsOf`).
       */
      answers?: string[][];
    }
  | {
      type: "number";
      prompt: ReactNode;
      unit: string | null;
      /** The correct value and tolerance: only in staff previews and once feedback is allowed. */
      correct?: { value: number; tolerance: number };
    }
  | { type: "word_cloud"; prompt: ReactNode; maxWords: number }
);

export type SceneAnswer =
  | { seen: true }
  | { choice: string }
  | { choices: string[] }
  | { text: string }
  | { value: number }
  | { first: string; second: string; reason: string }
  | DrawingAnswer
  | { order: string[] }
  | { pairs: Record<string, string> }
  | { blanks: string[] }
  | { number: number }
  | { words: string[] };
