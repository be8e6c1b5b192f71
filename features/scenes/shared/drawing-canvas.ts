import {
  DRAWING_HEIGHT,
  DRAWING_LIMITS,
  DRAWING_WIDTH,
  type DrawingAnswer,
  type DrawingPoint,
  type DrawingStroke,
  pointCount,
  withinLimits,
} from "./drawing-limits";

/** What the canvas reads of a pointer event. */
export interface PointerSample {
  clientX: number;
  clientY: number;
  pressure: number;
  pointerType: string;
}

/**
 * A pointer position as a point of the 1000 × 750 canvas (whole units,
 * clamped to it), with pressure in hundredths only from a pen (a mouse
 * reports 0.5, a finger 0 or 1: not pressure). Null while the canvas has no size.
 */
export function canvasPoint(
  e: PointerSample,
  box: { left: number; top: number; width: number; height: number },
): DrawingPoint | null {
  if (!(box.width > 0 && box.height > 0)) return null;
  const x = Math.min(DRAWING_WIDTH, Math.max(0, Math.round(((e.clientX - box.left) / box.width) * DRAWING_WIDTH)));
  const y = Math.min(DRAWING_HEIGHT, Math.max(0, Math.round(((e.clientY - box.top) / box.height) * DRAWING_HEIGHT)));
  return e.pointerType === "pen" && e.pressure > 0 ? [x, y, Math.min(1, Math.round(e.pressure * 100) / 100)] : [x, y];
}

/** Whether a new stroke may start on `drawing` (one more stroke and one more point fit). */
export const roomForStroke = (drawing: DrawingAnswer) =>
  drawing.strokes.length < DRAWING_LIMITS.strokes && pointCount(drawing) < DRAWING_LIMITS.points;

/**
 * The points of the stroke being drawn with `next` added: a point closer than
 * `minStep` to the last kept one is dropped, and none is added past the
 * points a stroke or the whole drawing may hold. The same array when nothing changed.
 */
export function extendStroke(drawing: DrawingAnswer, points: DrawingPoint[], next: DrawingPoint[]): DrawingPoint[] {
  let out = points;
  const room = Math.min(DRAWING_LIMITS.pointsPerStroke, DRAWING_LIMITS.points - pointCount(drawing));
  for (const p of next) {
    const last = out[out.length - 1];
    if (last && Math.hypot(p[0] - last[0], p[1] - last[1]) < DRAWING_LIMITS.minStep) continue;
    if (out.length >= room) break;
    out = [...out, p];
  }
  return out;
}

/** `drawing` with the finished `stroke`, or null when it would pass a limit the server checks (the canvas says it is full). */
export function withStroke(drawing: DrawingAnswer, stroke: DrawingStroke): DrawingAnswer | null {
  const next: DrawingAnswer = { ...drawing, strokes: [...drawing.strokes, stroke] };
  return withinLimits(next) ? next : null;
}
