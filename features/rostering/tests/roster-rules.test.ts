import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHiragana } from "@/features/activities/shared/furigana-align";
import {
  classNameOf,
  derivedId,
  gradeOfCode,
  readingOf,
  schoolYearOf,
  toKatakana,
} from "@/features/rostering/server/rules";

/** The pure rules of the OneRoster mapping (docs/oneroster.md "Import mapping"). */
describe("OneRoster mapping rules", () => {
  it("reads grade codes P1–P6, J1–J3, H1–H3 (and E) as the year in the school; anything else is none", () => {
    expect(["P1", "P6", "J1", "J3", "H2", "E1"].map(gradeOfCode)).toEqual([1, 6, 1, 3, 2, 1]);
    expect(["", "J", "J10", "K1", "j1", null, undefined].map(gradeOfCode)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("takes the 組 from the homeroom title, else from classCode, else the title", () => {
    expect(classNameOf("1年2組", "0102")).toBe("2");
    expect(classNameOf("3年A組", null)).toBe("A");
    expect(classNameOf("１年１１組", null)).toBe("11"); // full-width digits as 校務 systems write them
    expect(classNameOf("ひまわり学級", "0204")).toBe("4");
    expect(classNameOf("ひまわり学級", null)).toBe("ひまわり学級");
  });

  it("stores readings in hiragana 「せい めい」 and exports katakana that reads back the same", () => {
    expect(readingOf("ヤマダ", "タロウ")).toBe("やまだ たろう");
    expect(readingOf(null, "ハナコ")).toBe("はなこ");
    expect(readingOf(null, " ")).toBeNull();
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0x3041, max: 0x3096 }), { maxLength: 20 }), (codes) => {
        const hiragana = String.fromCharCode(...codes);
        expect(toHiragana(toKatakana(hiragana))).toBe(hiragana);
        expect(toKatakana(hiragana)).toMatch(/^[ァ-ヶ]*$/);
      }),
    );
  });

  it("derives the same v4-shaped id from the same key, different ones from different keys", () => {
    const v4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(derivedId(a)).toMatch(v4);
        expect(derivedId(a)).toBe(derivedId(a));
        if (a !== b) expect(derivedId(a)).not.toBe(derivedId(b));
      }),
    );
  });

  it("counts the 年度 from April in Japan time", () => {
    expect(schoolYearOf(new Date("2027-03-31T14:59:59Z"))).toBe(2026); // 23:59 on 31 March in Japan
    expect(schoolYearOf(new Date("2027-03-31T15:00:00Z"))).toBe(2027); // midnight, 1 April
  });
});
