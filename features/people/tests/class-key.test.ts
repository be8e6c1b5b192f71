import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classKeyOf, parseClassKey, sortClasses } from "@/features/people/shared/class-key";

describe("class keys", () => {
  it("names a class by 学年 and 組, and reads back what it wrote", () => {
    expect(classKeyOf(1, "2")).toBe("1:2");
    expect(classKeyOf(3, "A")).toBe("3:A");
    expect(classKeyOf(null, "2")).toBeNull();
    expect(classKeyOf(1, "")).toBeNull();
    expect(parseClassKey("1:2")).toEqual({ grade: 1, className: "2" });
    expect(parseClassKey("2:松:梅")).toEqual({ grade: 2, className: "松:梅" });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99 }), fc.string({ minLength: 1, maxLength: 10 }), (grade, className) => {
        expect(parseClassKey(classKeyOf(grade, className)!)).toEqual({ grade, className });
      }),
    );
  });

  it("a value that names no class is none (an old ?class=1, a forged one)", () => {
    for (const bad of ["1", "", ":2", "x:2", "123:4", "1:"]) expect(parseClassKey(bad), bad).toBeNull();
  });

  it("orders classes by 学年, then 1組, 2組, … 10組", () => {
    const sorted = sortClasses([
      { grade: 2, className: "1" },
      { grade: 1, className: "10" },
      { grade: 1, className: "2" },
    ]);
    expect(sorted.map((c) => classKeyOf(c.grade, c.className))).toEqual(["1:2", "1:10", "2:1"]);
  });
});
