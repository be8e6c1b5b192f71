import { describe, expect, it } from "vitest";
import {
  academicYearOf,
  confirmsSchoolName,
  defaultTopGrade,
  inferTopGrade,
  mayRollInto,
  planRollover,
} from "@/features/rostering/shared/rollover-plan";

describe("academic year (年度): April to March, Japan time", () => {
  it("turns at April 1, 00:00 in Tokyo (March 31, 15:00 UTC)", () => {
    expect(academicYearOf(new Date("2027-03-31T14:59:59Z"))).toBe(2026);
    expect(academicYearOf(new Date("2027-03-31T15:00:00Z"))).toBe(2027);
    expect(academicYearOf(new Date("2026-12-31T23:00:00Z"))).toBe(2026);
    expect(academicYearOf(new Date("2026-01-01T00:00:00Z"))).toBe(2025);
  });

  it("a school may roll into next year ahead (February, March), never two years at once", () => {
    const february = new Date("2027-02-10T00:00:00Z"); // 年度 2026
    expect(mayRollInto(2027, february)).toBe(true);
    expect(mayRollInto(2028, february)).toBe(false);
  });
});

describe("the rollover plan", () => {
  const classes = [
    { grade: 6, className: "1", numbers: [1, 2] },
    { grade: 1, className: "2", numbers: [1, null] },
    { grade: 1, className: "1", numbers: [1, 2, 3] },
  ];

  it("moves every grade below the top up one keeping its 組; the top grade graduates", () => {
    expect(inferTopGrade(classes)).toBe(6);
    const plan = planRollover(classes, 6, []);
    expect(plan.steps.map((s) => [s.grade, s.className, s.count, s.to])).toEqual([
      [1, "1", 3, { grade: 2, className: "1" }],
      [1, "2", 2, { grade: 2, className: "2" }],
      [6, "1", 2, null],
    ]);
    expect(plan).toMatchObject({ promoted: 5, graduates: 2, reissued: 0, clashes: [] });
  });

  it("a new 組 reissues its students' cards; two classes merged with the same numbers clash (a student without a number never does)", () => {
    expect(planRollover(classes, 6, [{ grade: 1, className: "1", to: "3" }])).toMatchObject({
      reissued: 3,
      clashes: [],
    });
    expect(planRollover(classes, 6, [{ grade: 1, className: "2", to: "1" }]).clashes).toEqual(["2-1-1"]);
  });

  it("a lower top grade (confirmed by the manager) graduates it and any grade above", () => {
    expect(planRollover(classes, 1, [])).toMatchObject({ promoted: 0, graduates: 7 });
  });
});

describe("the top grade the rollover page starts with", () => {
  const firstYears = [{ grade: 1, className: "1", numbers: [1, 2] }];

  it("is the school's kind's top grade, never the highest grade it happens to have (a 中学校 of 1年 only starts at 3年)", () => {
    expect(defaultTopGrade({ name: "市立みどり中学校", gradeCodes: [] }, firstYears)).toBe(3);
    expect(defaultTopGrade({ name: "市立みどり小学校", gradeCodes: [] }, firstYears)).toBe(6);
    expect(defaultTopGrade({ name: "県立みどり高等学校", gradeCodes: [] }, firstYears)).toBe(3);
    expect(defaultTopGrade({ name: "みどり義務教育学校", gradeCodes: [] }, firstYears)).toBe(9);
    expect(defaultTopGrade({ name: "みどり中等教育学校", gradeCodes: [] }, firstYears)).toBe(6);
  });

  it("else its homerooms' grade codes; only when neither says, the highest grade it has", () => {
    expect(defaultTopGrade({ name: "みどり学園", gradeCodes: ["J1"] }, firstYears)).toBe(3);
    expect(defaultTopGrade({ name: "みどり学園", gradeCodes: ["P1", "P2"] }, firstYears)).toBe(6);
    expect(
      defaultTopGrade({ name: "みどり学園", gradeCodes: [] }, [
        ...firstYears,
        { grade: 2, className: "1", numbers: [1] },
      ]),
    ).toBe(2);
  });

  it("the typed confirmation is the school's name, width and spaces aside; nothing typed never confirms", () => {
    expect(confirmsSchoolName("市立みどり中学校", "市立みどり中学校")).toBe(true);
    expect(confirmsSchoolName(" 市立　みどり中学校 ", "市立みどり中学校")).toBe(true);
    expect(confirmsSchoolName("ＡＢＣ中学校", "ABC中学校")).toBe(true);
    expect(confirmsSchoolName("市立みどり中学", "市立みどり中学校")).toBe(false);
    expect(confirmsSchoolName("", "")).toBe(false);
    expect(confirmsSchoolName(" ", " ")).toBe(false);
  });
});
