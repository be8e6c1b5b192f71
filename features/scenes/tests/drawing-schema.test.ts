import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { drawingPaths, strokePath } from "@/features/scenes/shared/drawing-outline";
import { MAX_ANSWER_BODY } from "@/features/play/server/answer-reply";
import { refusalOf } from "@/features/play/shared/answer-outcomes";
import { DRAWING_COLORS, DRAWING_HEIGHT, DRAWING_LIMITS, DRAWING_WIDTH } from "@/features/scenes/shared/drawing-limits";
import { answerSchemaFor, type Scene, sceneSchema } from "@/features/scenes/shared/schema";

const scene: Scene = sceneSchema.parse({
  type: "drawing",
  content: { prompt: "植物の絵をかこう", instructions: "葉と根をかく" },
});
const check = answerSchemaFor(scene);
const drawing = (strokes: unknown[]) => ({ width: DRAWING_WIDTH, height: DRAWING_HEIGHT, strokes });
const stroke = (points: unknown[], extra: Record<string, unknown> = {}) => ({
  color: DRAWING_COLORS[0],
  size: 8,
  points,
  ...extra,
});
const line = (n: number) => Array.from({ length: n }, (_, i) => [i % DRAWING_WIDTH, i % DRAWING_HEIGHT, 0.5]);
const reason = (answer: unknown) => {
  const r = check.safeParse(answer);
  return r.success ? "ok" : refusalOf(r.error.issues);
};

describe("drawing scenes", () => {
  it("content: a prompt and optional instructions, nothing else", () => {
    expect(sceneSchema.safeParse({ type: "drawing", content: { prompt: "絵" } }).success).toBe(true);
    expect(sceneSchema.safeParse({ type: "drawing", content: { prompt: "" } }).success).toBe(false);
    expect(
      sceneSchema.safeParse({ type: "drawing", content: { prompt: "絵", instructions: "x".repeat(4001) } }).success,
    ).toBe(false);
  });

  it("accepts a drawing with pressure, without pressure, and an empty one", () => {
    expect(
      reason(
        drawing([
          stroke([
            [10, 20, 0.35],
            [11, 22, 1],
          ]),
          stroke(
            [
              [0, 0],
              [DRAWING_WIDTH, DRAWING_HEIGHT],
            ],
            { color: DRAWING_COLORS[1], size: 2 },
          ),
        ]),
      ),
    ).toBe("ok");
    expect(reason(drawing([]))).toBe("ok");
    expect(reason(drawing([stroke([[5, 5]])]))).toBe("ok"); // a dot
  });

  it("refuses what a real canvas never sends", () => {
    for (const bad of [
      drawing([stroke([[-1, 0]])]),
      drawing([stroke([[DRAWING_WIDTH + 1, 0]])]),
      drawing([stroke([[0, DRAWING_HEIGHT + 1]])]),
      drawing([stroke([[1.5, 0]])]), // not rounded
      drawing([stroke([[1, 1, 1.5]])]), // pressure past 1
      drawing([stroke([[1, 1, 0.123]])]), // pressure not rounded
      drawing([stroke([[1, 1, 0.5, 9]])]),
      drawing([stroke([])]),
      drawing([stroke([[1, 1]], { color: "url(#x)" })]),
      drawing([stroke([[1, 1]], { color: '#000000" onload="alert(1)' })]),
      drawing([stroke([[1, 1]], { size: 0 })]),
      drawing([stroke([[1, 1]], { size: 1000 })]),
      drawing([stroke([[1, 1]], { extra: 1 })]),
      { ...drawing([]), width: 5000 },
      { ...drawing([]), svg: "<svg/>" },
      { text: "x" },
      { strokes: "<script>" },
      null,
    ]) {
      expect(reason(bad), JSON.stringify(bad)?.slice(0, 80)).not.toBe("ok");
    }
  });

  it("refuses past each hard limit as too long", () => {
    const { strokes, pointsPerStroke, points, bytes } = DRAWING_LIMITS;
    expect(reason(drawing([stroke(line(pointsPerStroke))]))).toBe("ok");
    expect(reason(drawing([stroke(line(pointsPerStroke + 1))]))).toBe("tooLong");
    expect(reason(drawing(Array.from({ length: strokes + 1 }, () => stroke([[1, 1]]))))).toBe("tooLong");
    const many = Math.ceil((points + 1) / pointsPerStroke);
    expect(reason(drawing(Array.from({ length: many }, () => stroke(line(pointsPerStroke)))))).toBe("tooLong");
    // long numbers within every count limit still stop at the byte limit
    const wide = Array.from({ length: points }, () => [999, 749, 0.99]);
    const fat = drawing(
      Array.from({ length: points / pointsPerStroke }, (_, i) =>
        stroke(wide.slice(i * pointsPerStroke, (i + 1) * pointsPerStroke)),
      ),
    );
    expect(JSON.stringify(fat).length).toBeGreaterThan(bytes);
    expect(reason(fat)).toBe("tooLong");
  });

  it("a real drawing fits: 120 strokes of 25 points with pressure", () => {
    const real = drawing(
      Array.from({ length: 120 }, (_, s) =>
        stroke(
          Array.from({ length: 25 }, (_, i) => [
            (s * 7 + i * 13) % DRAWING_WIDTH,
            (s * 5 + i * 11) % DRAWING_HEIGHT,
            0.42,
          ]),
        ),
      ),
    );
    expect(reason(real)).toBe("ok");
  });

  it("property: every drawing within the limits round-trips through JSON unchanged", () => {
    const point = fc.oneof(
      fc.tuple(fc.integer({ min: 0, max: DRAWING_WIDTH }), fc.integer({ min: 0, max: DRAWING_HEIGHT })),
      fc.tuple(
        fc.integer({ min: 0, max: DRAWING_WIDTH }),
        fc.integer({ min: 0, max: DRAWING_HEIGHT }),
        fc.integer({ min: 0, max: 100 }).map((p) => p / 100),
      ),
    );
    const strokeArb = fc.record({
      color: fc.constantFrom(...DRAWING_COLORS),
      size: fc.integer({ min: DRAWING_LIMITS.minSize, max: DRAWING_LIMITS.maxSize }),
      points: fc.array(point, { minLength: 1, maxLength: 40 }),
    });
    fc.assert(
      fc.property(fc.array(strokeArb, { maxLength: 30 }), (strokes) => {
        const answer = drawing(strokes);
        const parsed = check.parse(JSON.parse(JSON.stringify(answer)));
        expect(parsed).toEqual(answer);
      }),
    );
  });

  it("property: a crafted stroke (any JSON in a point or colour) is refused, never thrown", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (p, color) => {
        fc.pre(!(typeof color === "string" && (DRAWING_COLORS as readonly string[]).includes(color)));
        expect(check.safeParse(drawing([stroke([p], { color })])).success).toBe(false);
      }),
    );
  });

  it("the largest drawing the schema accepts still fits in one answer request", () => {
    const { points, pointsPerStroke, bytes } = DRAWING_LIMITS;
    // fill up to the byte limit with the longest points a canvas makes
    const strokes: ReturnType<typeof stroke>[] = [];
    let answer = drawing(strokes);
    for (let i = 0; i < points; i++) {
      if (i % pointsPerStroke === 0) strokes.push(stroke([]));
      strokes.at(-1)!.points.push([1000, 750, 0.99]);
      if (JSON.stringify(answer).length > bytes) {
        strokes.at(-1)!.points.pop();
        break;
      }
      answer = drawing(strokes);
    }
    expect(reason(answer)).toBe("ok");
    const request = {
      activityId: crypto.randomUUID(),
      sceneId: crypto.randomUUID(),
      answer,
      clientRevision: 2_000_000_000,
      idempotencyKey: "k".repeat(64),
      mode: "guide",
      respondentId: crypto.randomUUID(),
    };
    expect(new TextEncoder().encode(JSON.stringify(request)).length).toBeLessThan(MAX_ANSWER_BODY);
  });

  it("outlines: every stroke is a closed path in its pen's colour, a dot included", () => {
    const paths = drawingPaths(
      drawing([
        stroke([
          [10, 10],
          [200, 150],
          [400, 100],
        ]),
        stroke([[500, 500]], { color: DRAWING_COLORS[3] }),
      ]) as never,
    );
    expect(paths).toHaveLength(2);
    for (const p of paths) expect(p.d).toMatch(/^M[\d.]+,[\d.]+ Q[\d., T]+Z$/);
    expect(paths[1]!.color).toBe(DRAWING_COLORS[3]);
    // pen pressure thins the line: a light stroke's outline is narrower than a full one's
    const light = strokePath({
      color: DRAWING_COLORS[0],
      size: 16,
      points: [
        [0, 100, 0.1],
        [300, 100, 0.1],
        [600, 100, 0.1],
      ],
    });
    const full = strokePath({
      color: DRAWING_COLORS[0],
      size: 16,
      points: [
        [0, 100, 1],
        [300, 100, 1],
        [600, 100, 1],
      ],
    });
    const spread = (d: string) => {
      const ys = [...d.matchAll(/,([\d.]+)/g)].map((m) => Number(m[1]));
      return Math.max(...ys) - Math.min(...ys);
    };
    expect(spread(light)).toBeLessThan(spread(full));
  });
});
