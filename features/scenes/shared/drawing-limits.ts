/**
 * The stored form of a drawing answer (docs/product-design.md "Drawing"):
 * strokes as data, never pixels. Coordinates are whole units of a fixed
 * 1000 × 750 canvas (4:3, whatever the screen), pressure 0–1 in hundredths
 * (left out when the device reports none). No zod here: the student's canvas
 * imports it.
 */
export const DRAWING_WIDTH = 1000;
export const DRAWING_HEIGHT = 750;

/** The pens (a closed list: the colour is written into the teacher's SVG). */
export const DRAWING_COLORS = ["#1f2937", "#dc2626", "#2563eb", "#16a34a"] as const;
export type DrawingColor = (typeof DRAWING_COLORS)[number];
/** Pen sizes the canvas offers (canvas units); the schema accepts any whole size between the limits. */
export const DRAWING_SIZES = [4, 8, 16] as const;

/**
 * Hard limits. A real answer (a labelled sketch, a few handwritten lines:
 * ~100 strokes of ~25 points after the canvas drops points closer than
 * `minStep`) is far below; the byte limit keeps the request inside the
 * answer endpoint's 64 KiB (features/play/server/answer-reply.ts) with its envelope.
 */
export const DRAWING_LIMITS = {
  strokes: 300,
  pointsPerStroke: 500,
  points: 4000,
  /** JSON.stringify length of the whole answer (ASCII only: characters are bytes). */
  bytes: 60_000,
  minSize: 1,
  maxSize: 40,
  /** The canvas keeps a point only this far (canvas units) from the last one it kept. */
  minStep: 3,
} as const;

export type DrawingPoint = [number, number] | [number, number, number];
export interface DrawingStroke {
  color: DrawingColor;
  size: number;
  points: DrawingPoint[];
}
export interface DrawingAnswer {
  width: typeof DRAWING_WIDTH;
  height: typeof DRAWING_HEIGHT;
  strokes: DrawingStroke[];
}

/** An empty drawing (the canvas before the first stroke, or after "clear"). */
export const emptyDrawing = (): DrawingAnswer => ({ width: DRAWING_WIDTH, height: DRAWING_HEIGHT, strokes: [] });

/** Points in the drawing (all strokes). */
export const pointCount = (d: DrawingAnswer) => d.strokes.reduce((n, s) => n + s.points.length, 0);

/** Whether `d` is within every limit the server checks (the canvas stops adding before it is not). */
export function withinLimits(d: DrawingAnswer): boolean {
  return (
    d.strokes.length <= DRAWING_LIMITS.strokes &&
    d.strokes.every((s) => s.points.length <= DRAWING_LIMITS.pointsPerStroke) &&
    pointCount(d) <= DRAWING_LIMITS.points &&
    JSON.stringify(d).length <= DRAWING_LIMITS.bytes
  );
}
