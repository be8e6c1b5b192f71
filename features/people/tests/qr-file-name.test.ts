import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { qrFileName } from "@/features/people/shared/qr-file-name";

describe("qrFileName", () => {
  it("names the class, the two-digit number and the student", () => {
    expect(qrFileName({ classLabel: "1年1組", number: 3, name: "山田 花子" })).toBe("1年1組03_山田花子.png");
    expect(qrFileName({ classLabel: "2ねん3くみ", number: 12, name: "やまだ はなこ" })).toBe(
      "2ねん3くみ12_やまだはなこ.png",
    );
  });
  it("a student without a class is named alone", () => {
    expect(qrFileName({ classLabel: null, number: null, name: "山田　花子" })).toBe("山田花子.png");
  });
  it("never holds a path separator or a character a file system refuses, and always ends in .png", () => {
    fc.assert(
      fc.property(fc.option(fc.string()), fc.option(fc.nat(999)), fc.string(), (classLabel, number, name) => {
        const file = qrFileName({ classLabel, number, name });
        expect(file).toMatch(/\.png$/);
        expect(file).not.toMatch(/[\\/:*?"<>|\u0000-\u001f]/);
        expect(file.length).toBeLessThanOrEqual(104);
      }),
    );
  });
});
