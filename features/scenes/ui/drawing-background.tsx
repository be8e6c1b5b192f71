import { DRAWING_HEIGHT, DRAWING_WIDTH } from "@/features/scenes/shared/drawing-limits";
import type { RenderedScene } from "./types";

/** The src of the picture a drawing scene is drawn on (its image with `onImage`), or undefined. */
export const drawingBackgroundOf = (scene: RenderedScene | null | undefined): string | undefined =>
  scene?.type === "drawing" && scene.onImage ? scene.image?.src : undefined;

/**
 * The picture a drawing is drawn on (a worksheet's page), fitted inside the canvas, centred, as the student saw
 * it: the first child of every drawing's SVG (the canvas, a review, the galleries), under the strokes.
 */
export function DrawingBackground({ src }: { src: string | undefined }) {
  return src ? (
    <image
      href={src}
      x={0}
      y={0}
      width={DRAWING_WIDTH}
      height={DRAWING_HEIGHT}
      preserveAspectRatio="xMidYMid meet"
      data-testid="drawing-background"
    />
  ) : null;
}
