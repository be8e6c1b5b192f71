import { describe, expect, it } from "vitest";
import { canvasPoint, extendStroke, roomForStroke, withStroke } from "@/features/scenes/shared/drawing-canvas";
import {
  DRAWING_COLORS,
  DRAWING_LIMITS,
  type DrawingAnswer,
  type DrawingPoint,
  emptyDrawing,
} from "@/features/scenes/shared/drawing-limits";
import { drawingAnswerSchema } from "@/features/scenes/shared/drawing-schema";

const box = { left: 10, top: 20, width: 360, height: 270 }; // a 360 px phone
const sample = (x: number, y: number, pointerType = "touch", pressure = 1) => ({
  clientX: x,
  clientY: y,
  pointerType,
  pressure,
});
const full = (points: number): DrawingAnswer => {
  const d = emptyDrawing();
  for (let left = points; left > 0; left -= DRAWING_LIMITS.pointsPerStroke) {
    d.strokes.push({
      color: DRAWING_COLORS[0],
      size: 8,
      points: Array.from(
        { length: Math.min(left, DRAWING_LIMITS.pointsPerStroke) },
        (_, i) => [i % 1000, 1] as DrawingPoint,
      ),
    });
  }
  return d;
};

describe("the drawing canvas's rules", () => {
  it("maps a pointer to whole canvas units, clamped; pressure only from a pen, in hundredths", () => {
    expect(canvasPoint(sample(10, 20), box)).toEqual([0, 0]);
    expect(canvasPoint(sample(370, 290), box)).toEqual([1000, 750]);
    expect(canvasPoint(sample(190, 155), box)).toEqual([500, 375]);
    expect(canvasPoint(sample(-50, 900), box)).toEqual([0, 750]);
    expect(canvasPoint(sample(190, 155, "mouse", 0.5), box)).toEqual([500, 375]);
    expect(canvasPoint(sample(190, 155, "pen", 0.4567), box)).toEqual([500, 375, 0.46]);
    expect(canvasPoint(sample(190, 155, "pen", 0), box)).toEqual([500, 375]);
    expect(canvasPoint(sample(1, 1), { ...box, width: 0 })).toBeNull();
    // whatever the pointer says, the point is one the server accepts
    for (const s of [sample(1e9, -1e9, "pen", 7), sample(Number.MAX_VALUE, 3, "pen", 0.333333)]) {
      const p = canvasPoint(s, box)!;
      expect(
        drawingAnswerSchema.safeParse({
          ...emptyDrawing(),
          strokes: [{ color: DRAWING_COLORS[0], size: 8, points: [p] }],
        }).success,
      ).toBe(true);
    }
  });

  it("drops points closer than the step and stops at a stroke's limit", () => {
    const start: DrawingPoint[] = [[100, 100]];
    expect(extendStroke(emptyDrawing(), start, [[101, 101]])).toBe(start);
    expect(
      extendStroke(emptyDrawing(), start, [
        [101, 101],
        [110, 100],
      ]),
    ).toEqual([
      [100, 100],
      [110, 100],
    ]);
    const many = Array.from(
      { length: 2 * DRAWING_LIMITS.pointsPerStroke },
      (_, i) => [(i * 5) % 1000, Math.floor(i / 200) * 10] as DrawingPoint,
    );
    expect(extendStroke(emptyDrawing(), [], many)).toHaveLength(DRAWING_LIMITS.pointsPerStroke);
  });

  it("stops at the drawing's point limit, refuses a new stroke when full, and a stroke past the bytes", () => {
    const almost = full(DRAWING_LIMITS.points - 2);
    expect(roomForStroke(almost)).toBe(true);
    expect(
      extendStroke(
        almost,
        [],
        [
          [0, 0],
          [10, 0],
          [20, 0],
          [30, 0],
        ],
      ),
    ).toEqual([
      [0, 0],
      [10, 0],
    ]);
    expect(roomForStroke(full(DRAWING_LIMITS.points))).toBe(false);
    expect(
      roomForStroke({
        ...emptyDrawing(),
        strokes: Array.from({ length: DRAWING_LIMITS.strokes }, () => ({
          color: DRAWING_COLORS[0],
          size: 8,
          points: [[1, 1]],
        })),
      }),
    ).toBe(false);
    const stroke = { color: DRAWING_COLORS[1], size: 8, points: [[5, 5]] as DrawingPoint[] };
    expect(withStroke(emptyDrawing(), stroke)).toEqual({ ...emptyDrawing(), strokes: [stroke] });
    // long numbers everywhere: the count limits hold but the bytes do not
    const fat = full(DRAWING_LIMITS.points - 1);
    for (const s of fat.strokes) s.points = s.points.map(() => [999, 749, 0.99]);
    expect(withStroke(fat, stroke)).toBeNull();
  });
});
