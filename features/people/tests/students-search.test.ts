import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seatNumberOf } from "@/features/people/shared/schema";

const fullWidth = (s: string) => s.replace(/\d/g, (d) => String.fromCharCode(0xff10 + Number(d)));

describe("a students search that is a 番号", () => {
  it("reads every 番号 1–99, in half- or full-width digits, with spaces around", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.boolean(), fc.constantFrom("", " ", "　"), (n, wide, pad) => {
        const text = wide ? fullWidth(String(n)) : String(n);
        expect(seatNumberOf(`${pad}${text}${pad}`)).toBe(n);
      }),
    );
  });
  it("is not a 番号 otherwise: names, 0, three digits, signs, decimals", () => {
    for (const text of ["山田", "はなこ12", "0", "00", "100", "-1", "1.5", "1e1", "", "７ 年"])
      expect(seatNumberOf(text)).toBeNull();
  });
});
