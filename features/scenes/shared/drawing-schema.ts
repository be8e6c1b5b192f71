import { z } from "zod";
import { DRAWING_COLORS, DRAWING_HEIGHT, DRAWING_LIMITS, DRAWING_WIDTH } from "./drawing-limits";

const hundredths = (p: number) => Number(p.toFixed(2)) === p;
const x = z.number().int().min(0).max(DRAWING_WIDTH);
const y = z.number().int().min(0).max(DRAWING_HEIGHT);
const pressure = z.number().min(0).max(1).refine(hundredths, "pressure is rounded to hundredths");

export const drawingStrokeSchema = z
  .object({
    color: z.enum(DRAWING_COLORS),
    size: z.number().int().min(DRAWING_LIMITS.minSize).max(DRAWING_LIMITS.maxSize),
    points: z
      .array(z.union([z.tuple([x, y]), z.tuple([x, y, pressure])]))
      .min(1)
      .max(DRAWING_LIMITS.pointsPerStroke),
  })
  .strict();

/**
 * A drawing answer (features/scenes/shared/drawing-limits.ts): every count is bounded before
 * the total points and bytes are checked, so a crafted answer is refused
 * (as too long) without being walked in full.
 */
export const drawingAnswerSchema = z
  .object({
    width: z.literal(DRAWING_WIDTH),
    height: z.literal(DRAWING_HEIGHT),
    strokes: z.array(drawingStrokeSchema).max(DRAWING_LIMITS.strokes),
  })
  .strict()
  .superRefine((d, ctx) => {
    const points = d.strokes.reduce((n, s) => n + s.points.length, 0);
    if (points > DRAWING_LIMITS.points)
      ctx.addIssue({
        code: "too_big",
        origin: "array",
        maximum: DRAWING_LIMITS.points,
        inclusive: true,
        path: ["strokes"],
        message: "too many points",
      });
    else if (JSON.stringify(d).length > DRAWING_LIMITS.bytes)
      ctx.addIssue({
        code: "too_big",
        origin: "string",
        maximum: DRAWING_LIMITS.bytes,
        inclusive: true,
        path: ["strokes"],
        message: "too many bytes",
      });
  });
