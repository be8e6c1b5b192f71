/**
 * KaTeX's stylesheet with its two everyday fonts split by `unicode-range`, so
 * that a formula such as `x^2 + 3 = 7` fetches two small files (digits and
 * arithmetic, lower-case italic letters: about 10 KB) instead of KaTeX_Main-Regular
 * and KaTeX_Math-Italic whole (43 KB). The browser fetches a part only when the
 * page shows one of its characters; the parts together hold every character
 * of the font, so math renders as before. Writes platform/ui/katex/
 * (katex.css, which app/layout.tsx imports instead of katex's own, and the
 * parts in fonts/); run it again after an upgrade of katex:
 *
 *   npx tsx scripts/make-katex-fonts.ts
 *
 * scripts/tests/katex-fonts.test.ts fails when the committed files are not what
 * this makes from the installed katex.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const KATEX = path.join(ROOT, "node_modules/katex/dist");
export const OUT = path.join(ROOT, "platform/ui/katex");

const inRanges =
  (...ranges: [number, number][]) =>
  (c: number) =>
    ranges.some(([a, b]) => c >= a && c <= b);
const ARITHMETIC = [..." +=().,\u00a0\u00d7\u00f7\u2212"].map((c) => c.codePointAt(0)!);
const OPERATORS = [0xa0, 0xb1, 0xb7, 0xd7, 0xf7, 0x2026, 0x2212, 0x2260, 0x2264, 0x2265, 0x22c5];
/** Each font's parts in order; a code point goes to the first part that takes it, the last takes the rest. */
export const SPLITS: {
  file: string;
  family: string;
  style: string;
  parts: { name: string; takes: (c: number) => boolean }[];
}[] = [
  {
    file: "KaTeX_Main-Regular",
    family: "KaTeX_Main",
    style: "normal",
    parts: [
      // digits and arithmetic: nearly every formula of school math
      { name: "arithmetic", takes: (c) => inRanges([0x30, 0x39])(c) || ARITHMETIC.includes(c) },
      // the other operators, brackets and punctuation
      { name: "symbols", takes: (c) => inRanges([0x20, 0x40], [0x5b, 0x60], [0x7b, 0x7e])(c) || OPERATORS.includes(c) },
      // upright Latin letters: function names (sin, log), \text
      { name: "latin", takes: inRanges([0x41, 0x5a], [0x61, 0x7a]) },
      { name: "rest", takes: () => true },
    ],
  },
  {
    file: "KaTeX_Math-Italic",
    family: "KaTeX_Math",
    style: "italic",
    parts: [
      // the variables of school math
      { name: "lower", takes: (c) => c === 0x20 || c === 0xa0 || inRanges([0x61, 0x7a])(c) },
      { name: "latin", takes: inRanges([0x20, 0x7e]) },
      { name: "rest", takes: () => true },
    ],
  },
];

/** The code points of a font file (its cmap), by HarfBuzz. */
export async function codePoints(file: string): Promise<number[]> {
  const { Blob, Face } = await import("harfbuzzjs");
  return [...new Face(new Blob(readFileSync(path.join(KATEX, "fonts", `${file}.ttf`)))).collectUnicodes()];
}

/** `U+20-40,U+5B-60,…` */
export function unicodeRange(points: number[]): string {
  const sorted = [...points].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    const hex = (n: number) => n.toString(16).toUpperCase();
    out.push(i === j ? `U+${hex(sorted[i]!)}` : `U+${hex(sorted[i]!)}-${hex(sorted[j]!)}`);
    i = j + 1;
  }
  return out.join(",");
}

/** Each split font's code points by part. */
export async function partition(): Promise<Map<string, { name: string; points: number[] }[]>> {
  const result = new Map<string, { name: string; points: number[] }[]>();
  for (const split of SPLITS) {
    let left = await codePoints(split.file);
    result.set(
      split.file,
      split.parts.map((part) => {
        const points = left.filter(part.takes);
        left = left.filter((c) => !part.takes(c));
        return { name: part.name, points };
      }),
    );
  }
  return result;
}

/** katex.min.css with the split fonts' @font-face rules replaced by their parts', every other font from the katex package. */
export function katexCss(parts: Map<string, { name: string; points: number[] }[]>): string {
  const css = readFileSync(path.join(KATEX, "katex.min.css"), "utf8");
  const fonts = path.relative(OUT, path.join(KATEX, "fonts")).split(path.sep).join("/");
  let replaced = 0;
  const out = css.replace(/@font-face\{[^}]*\}/g, (rule) => {
    const split = SPLITS.find((s) => rule.includes(`url(fonts/${s.file}.woff2)`));
    if (!split) return rule.replaceAll("url(fonts/", `url(${fonts}/`);
    replaced++;
    return parts
      .get(split.file)!
      .map(
        (part) =>
          `@font-face{font-display:block;font-family:${split.family};font-style:${split.style};font-weight:400;` +
          `src:url(fonts/${split.file}.${part.name}.woff2) format("woff2");unicode-range:${unicodeRange(part.points)}}`,
      )
      .join("");
  });
  if (replaced !== SPLITS.length)
    throw new Error(`katex.min.css: ${replaced} of ${SPLITS.length} fonts found to split`);
  return `/* made by scripts/make-katex-fonts.ts from katex ${katexVersion()}: do not edit */\n${out}`;
}

const katexVersion = () =>
  (JSON.parse(readFileSync(path.join(KATEX, "../package.json"), "utf8")) as { version: string }).version;

async function main() {
  const { default: subsetFont } = await import("subset-font");
  const parts = await partition();
  rmSync(path.join(OUT, "fonts"), { recursive: true, force: true });
  mkdirSync(path.join(OUT, "fonts"), { recursive: true });
  for (const split of SPLITS) {
    const ttf = readFileSync(path.join(KATEX, "fonts", `${split.file}.ttf`));
    for (const part of parts.get(split.file)!) {
      const woff2 = await subsetFont(ttf, String.fromCodePoint(...part.points), { targetFormat: "woff2" });
      writeFileSync(path.join(OUT, "fonts", `${split.file}.${part.name}.woff2`), woff2);
      console.log(`${split.file}.${part.name}: ${part.points.length} characters, ${woff2.length} bytes`);
    }
  }
  writeFileSync(path.join(OUT, "katex.css"), katexCss(parts));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
