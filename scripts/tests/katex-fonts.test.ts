import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codePoints, katexCss, OUT, partition, SPLITS, unicodeRange } from "../make-katex-fonts";

// KaTeX's stylesheet with its two everyday fonts split by unicode-range (scripts/make-katex-fonts.ts)
describe("KaTeX's fonts split by unicode-range", () => {
  it("the committed stylesheet is what scripts/make-katex-fonts.ts makes from the installed katex", async () => {
    expect(readFileSync(path.join(OUT, "katex.css"), "utf8")).toBe(katexCss(await partition()));
  });

  it("each split font's parts hold every character of the font, each once, and every part's file is there", async () => {
    const parts = await partition();
    for (const split of SPLITS) {
      const all = (await codePoints(split.file)).sort((a, b) => a - b);
      const got = parts.get(split.file)!.flatMap((p) => p.points);
      expect(got.slice().sort((a, b) => a - b)).toEqual(all);
      expect(new Set(got).size).toBe(got.length);
      for (const part of parts.get(split.file)!)
        expect(existsSync(path.join(OUT, "fonts", `${split.file}.${part.name}.woff2`))).toBe(true);
    }
  });

  // KaTeX draws "-" as U+2212
  it("a formula in ASCII needs only the first part of each", async () => {
    const parts = await partition();
    const formula = [..."x^2 + 3 = 7, 2(y)"].map((c) => c.codePointAt(0)!).concat(0x2212);
    expect(
      formula
        .filter((c) => c !== 0x5e && /[^a-z]/.test(String.fromCodePoint(c)))
        .every((c) => parts.get("KaTeX_Main-Regular")![0]!.points.includes(c)),
    ).toBe(true);
    expect([..."xy"].every((c) => parts.get("KaTeX_Math-Italic")![0]!.points.includes(c.codePointAt(0)!))).toBe(true);
  });

  it("writes unicode-range as CSS does", () => {
    expect(unicodeRange([0x41, 0x20, 0x21, 0x22, 0x2212])).toBe("U+20-22,U+41,U+2212");
  });
});
