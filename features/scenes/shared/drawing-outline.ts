import { getStroke } from "perfect-freehand";
import type { DrawingAnswer, DrawingColor, DrawingStroke } from "./drawing-limits";

type Vec = [number, number];
const avg = (a: number, b: number) => ((a + b) / 2).toFixed(1);

/**
 * The SVG path of one stroke's outline (perfect-freehand's getStroke, drawn
 * as its README's quadratic path): the same function draws the student's
 * canvas and the teacher's picture, so both see the same line. Pen pressure
 * thins the line only when the device reported it (a pen); mouse and finger
 * lines keep the pen's size.
 */
export function strokePath(stroke: DrawingStroke, last = true): string {
  const pressure = stroke.points.some((p) => p.length === 3);
  const outline = getStroke(stroke.points, {
    size: stroke.size,
    thinning: pressure ? 0.6 : 0,
    smoothing: 0.5,
    streamline: 0.4,
    simulatePressure: false,
    last,
  });
  if (outline.length < 4) return "";
  const [a, b, c] = outline as unknown as [Vec, Vec, Vec];
  let d = `M${a[0].toFixed(1)},${a[1].toFixed(1)} Q${b[0].toFixed(1)},${b[1].toFixed(1)} ${avg(b[0], c[0])},${avg(b[1], c[1])} T`;
  for (let i = 2; i < outline.length - 1; i++) {
    const [p, q] = [outline[i] as unknown as Vec, outline[i + 1] as unknown as Vec];
    d += `${avg(p[0], q[0])},${avg(p[1], q[1])} `;
  }
  return `${d}Z`;
}

/** Every stroke of a drawing as a filled path (colour from the closed pen list). */
export function drawingPaths(drawing: DrawingAnswer): { d: string; color: DrawingColor }[] {
  return drawing.strokes.flatMap((s) => {
    const d = strokePath(s);
    return d ? [{ d, color: s.color }] : [];
  });
}
