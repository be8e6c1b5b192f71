import { describe, expect, it } from "vitest";
import { framesDuringUpdates, pairUpdates } from "../bench/checks";
import { deliveryRow, gridRenderRow, untilEveryReceiver } from "../bench/verdict";

describe("the live-controls bench rows", () => {
  it("passes a control that reaches every receiver with p99 under the limit, and misses on a slow tail or one missed delivery", () => {
    const fast = Array.from({ length: 100 }, (_, i) => 20 + (i % 30));
    expect(deliveryRow("pause", 100, fast, 0)).toMatchObject({ ok: true, ratio: 0.49 });
    expect(deliveryRow("pause", 100, fast, 0).measured).toBe("p99 49 ms (median 33, max 49; 100 deliveries, missed 0)");
    // two slow deliveries in a hundred: the p99 is the slow one
    const tail = [...fast.slice(2), 150, 180];
    expect(deliveryRow("pause", 100, tail, 0)).toMatchObject({ ok: false, ratio: 1.5 });
    expect(deliveryRow("pause", 100, fast, 1).ok).toBe(false);
    expect(deliveryRow("pause", 100, [], 0).ok).toBe(false);
  });

  it("times each press until its LAST receiver saw it; a press one receiver never saw is missed, not timed", () => {
    // three presses, three receivers (40 students and the projector in the bench)
    expect(
      untilEveryReceiver([
        [5, 9, 7],
        [3, undefined, 4],
        [12, 2, 30],
      ]),
    ).toEqual({ times: [9, 30], missed: 1 });
    expect(untilEveryReceiver([[]])).toEqual({ times: [], missed: 1 });
    expect(deliveryRow("star", 100, [9, 30], 1, "", "presses").measured).toBe(
      "p99 30 ms (median 20, max 30; 2 presses, missed 1)",
    );
    expect(deliveryRow("star", 100, [9, 30], 1).ok).toBe(false);
  });

  it("times each grid update from its arrival to the first layout after it; an update never laid out is counted", () => {
    expect(pairUpdates([10, 50, 52, 90], [5, 14, 58, 60])).toEqual({
      times: [4, 8, 6],
      windows: [
        [10, 14],
        [50, 58],
        [52, 58],
      ],
      unrendered: 1,
    });
  });

  it("counts the frames that ran over 1.5 frames and the long animation frames during updates, not outside them", () => {
    const frames = [0, 16.7, 33.4, 50, 90, 106.7, 200, 240];
    // one update from 40 to 60: the frame 50 → 90 overlaps it; 200 → 240 is outside every window
    expect(
      framesDuringUpdates([[40, 60]], frames, [
        [45, 60],
        [210, 60],
      ]),
    ).toEqual({ counted: 3, dropped: 1, long: 1 });
  });

  it("misses the grid row on a slow update, an update not rendered, too few updates or a long animation frame", () => {
    const quick = Array.from({ length: 104 }, (_, i) => 4 + (i % 8));
    const frames = { counted: 300, dropped: 0, long: 0 };
    const base = { times: quick, unrendered: 0, minUpdates: 100, frames };
    expect(gridRenderRow("grid", 16, base)).toMatchObject({ ok: true });
    expect(gridRenderRow("grid", 16, { ...base, times: [...quick.slice(3), 17, 18, 20] }).ok).toBe(false);
    expect(gridRenderRow("grid", 16, { ...base, unrendered: 1 }).ok).toBe(false);
    expect(gridRenderRow("grid", 16, { ...base, minUpdates: 105 }).ok).toBe(false);
    expect(gridRenderRow("grid", 16, { ...base, frames: { ...frames, long: 1 } }).ok).toBe(false);
  });
});
