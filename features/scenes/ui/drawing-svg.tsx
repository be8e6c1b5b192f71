import "server-only";
import { DRAWING_HEIGHT, DRAWING_WIDTH } from "@/features/scenes/shared/drawing-limits";
import { drawingPaths } from "@/features/scenes/shared/drawing-outline";
import { drawingAnswerSchema } from "@/features/scenes/shared/drawing-schema";
import { DrawingBackground } from "./drawing-background";

/** The stroke count of a stored drawing (0 for anything that is not one). */
export function strokeCountOf(answer: unknown): number {
  const parsed = drawingAnswerSchema.safeParse(answer);
  return parsed.success ? parsed.data.strokes.length : 0;
}

/**
 * A stored drawing as an inline SVG, outlined on the server
 * (features/scenes/shared/drawing-outline.ts): the browser gets paths, not the drawing code.
 * The answer is parsed again: only a valid drawing is drawn, and colours come
 * from the closed pen list, so nothing in it can reach the markup. `label`:
 * its accessible name (plain text).
 */
export function DrawingSvg({
  answer,
  label,
  className,
  background,
}: {
  answer: unknown;
  label: (strokes: number) => string;
  className?: string;
  /** The picture it was drawn on (features/scenes/ui/drawing-background.tsx). */
  background?: string;
}) {
  const parsed = drawingAnswerSchema.safeParse(answer);
  if (!parsed.success) return null;
  const paths = drawingPaths(parsed.data);
  return (
    <svg
      className={className ?? "drawing-picture"}
      viewBox={`0 0 ${DRAWING_WIDTH} ${DRAWING_HEIGHT}`}
      role="img"
      aria-label={label(parsed.data.strokes.length)}
      data-testid="drawing-svg"
      data-strokes={parsed.data.strokes.length}
    >
      <DrawingBackground src={background} />
      {paths.map((p, i) => (
        <path key={i} d={p.d} fill={p.color} />
      ))}
    </svg>
  );
}
