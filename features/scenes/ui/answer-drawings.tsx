import "server-only";
import { getTranslations } from "next-intl/server";
import type { ReactNode } from "react";
import { getPlainText } from "@/platform/i18n/server";
import { drawingBackgroundOf } from "./drawing-background";
import { DrawingSvg } from "./drawing-svg";
import type { RenderedScene } from "./types";

/** The label of a drawing's picture ("かいた絵（線3本）") in the display language, as plain text. */
export async function drawingLabel(): Promise<(strokes: number) => string> {
  const t = await getTranslations("Scenes.drawing");
  const plain = await getPlainText();
  return (count) => plain(t("picture", { count }));
}

/**
 * The answers to drawing scenes as pictures drawn on the server, by scene id,
 * for a read-only review (`label`: drawingLabel()) (features/play/ui/answer-review.tsx): the review's
 * page gets SVG paths, never the canvas or perfect-freehand.
 */
export function answerDrawings(
  scenes: RenderedScene[],
  answers: Record<string, unknown>,
  label: (strokes: number) => string,
): Record<string, ReactNode> {
  return Object.fromEntries(
    scenes.flatMap((s) =>
      s.type === "drawing" && answers[s.id]
        ? [[s.id, <DrawingSvg key={s.id} answer={answers[s.id]} label={label} background={drawingBackgroundOf(s)} />]]
        : [],
    ),
  );
}
