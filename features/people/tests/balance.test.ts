import { describe, expect, it } from "vitest";
import { assignBalanced } from "@/features/people/shared/balance";

const klass = (className: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `${className}-${i + 1}`, grade: 1, className, number: i + 1 }));

describe("assign balanced", () => {
  it("alternates by class number and rotates the start per class", () => {
    const result = assignBalanced([...klass("2", 3), ...klass("1", 4)], ["A", "B"]);
    expect(["1-1", "1-2", "1-3", "1-4"].map((id) => result.get(id))).toEqual(["A", "B", "A", "B"]);
    expect(["2-1", "2-2", "2-3"].map((id) => result.get(id))).toEqual(["B", "A", "B"]);
  });

  it("spreads evenly over any number of groups", () => {
    const result = assignBalanced(klass("1", 40), ["A", "B", "C"]);
    const counts = ["A", "B", "C"].map((g) => [...result.values()].filter((v) => v === g).length);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(result.size).toBe(40);
  });

  it("is stable whatever order the students come in", () => {
    const students = [...klass("1", 5), ...klass("3", 5)];
    const a = assignBalanced(students, ["A", "B"]);
    const b = assignBalanced([...students].reverse(), ["A", "B"]);
    expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
    expect(assignBalanced(students, []).size).toBe(0);
  });
});
