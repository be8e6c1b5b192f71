import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keepEqual } from "@/features/play/shared/keep-equal";

const json = fc.jsonValue();

describe("a live state keeps the parts that did not change", () => {
  it("is equal by value to the next state, whatever the two are", () => {
    fc.assert(
      fc.property(json, json, (previous, next) => {
        expect(keepEqual(previous, next)).toEqual(next);
      }),
      // keys an object has from its prototype: JSON.parse makes them its own (a random run met `__proto__`)
      {
        examples: [
          [{}, JSON.parse('{"__proto__":""}')],
          [{}, { constructor: 1, toString: "x" }],
          [{ a: 1 }, {}],
        ],
      },
    );
  });

  it("returns the previous state itself when the next one is equal to it", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(keepEqual(value, structuredClone(value))).toBe(value);
      }),
    );
  });

  it("keeps an unchanged student's object when another student answered, and a new one for the one who did", () => {
    const previous = {
      version: 1,
      grid: {
        students: [
          { id: "a", state: "working" },
          { id: "b", state: "working" },
        ],
      },
      results: { total: 0, counts: [0, 0] },
    };
    const next = {
      version: 2,
      grid: {
        students: [
          { id: "a", state: "working" },
          { id: "b", state: "answered" },
        ],
      },
      results: { total: 0, counts: [0, 0] },
    };
    const kept = keepEqual(previous, next);
    expect(kept).not.toBe(previous);
    expect(kept.grid.students[0]).toBe(previous.grid.students[0]);
    expect(kept.grid.students[1]).not.toBe(previous.grid.students[1]);
    expect(kept.grid.students[1]).toEqual({ id: "b", state: "answered" });
    expect(kept.results).toBe(previous.results);
  });

  it("treats a key that appeared or went as a change", () => {
    const previous: Record<string, unknown> = { a: 1 };
    expect(keepEqual(previous, { a: 1, b: undefined })).not.toBe(previous);
    expect(keepEqual({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
  });
});
