import fc from "fast-check";
import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { renderKatex } from "@/platform/richtext/katex";
import { parseRichText } from "@/platform/richtext/parse";
import { toPlainText } from "@/platform/richtext/plain";
import { renderNodes } from "@/platform/richtext/render-core";

const html = (input: string, lang: "ja" | "ja-ruby" | "ja-kana" = "ja-ruby") =>
  renderToStaticMarkup(createElement(Fragment, null, ...renderNodes(parseRichText(input), lang, renderKatex)));

/** Active HTML in the output: a dangerous element, an event-handler attribute, or a javascript: URL in a tag. */
function activeHtml(out: string): string[] {
  return (out.match(/<[a-zA-Z][^>]*>/g) ?? []).filter(
    (tag) =>
      /^<(script|iframe|img|object|embed|svg|a\s)/i.test(tag) ||
      /\son[a-z]+\s*=/i.test(tag) ||
      /javascript:/i.test(tag),
  );
}

describe("rich-text renderer", () => {
  it("renders ruby per display language", () => {
    expect(html("|漢字(かんじ)", "ja-ruby")).toBe("<ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>");
    expect(html("|漢字(かんじ)", "ja")).toBe("漢字");
    expect(html("|漢字(かんじ)", "ja-kana")).toBe("かんじ");
  });

  it("renders colours as tokens, unknown colours as plain text, and light colours on a chip", () => {
    expect(html("{red:赤}")).toContain('data-color="accent-red"');
    expect(html("{red:赤}")).toContain("var(--color-accent-red)");
    expect(html("{magenta:x}")).toBe("x");
    expect(html("{white:x}")).toContain("rt-chip");
  });

  it("typesets math with KaTeX and shows bad TeX as marked source", () => {
    expect(html("`x^2`")).toContain('class="katex"');
    expect(html("`\\frac{1}{`")).toContain('data-math-error="true"');
  });

  it.each([
    "<script>alert(1)</script>",
    "{red:<img src=x onerror=alert(1)>}",
    "`\\href{javascript:alert(1)}{x}`",
    "`\\url{javascript:alert(1)}`",
    "`\\htmlData{onclick=alert(1)}{x}`",
    "**<svg onload=alert(1)>**",
    "|<b onmouseover=alert(1)>(x)",
  ])("never emits active HTML for %j", (input) => {
    expect(activeHtml(html(input))).toEqual([]);
  });

  it("keeps the text of random and adversarial input, and never emits active HTML", () => {
    const pieces = fc.constantFrom(
      "<script>",
      "</script>",
      "onerror=",
      "javascript:",
      "`",
      "**",
      "__",
      "{red:",
      "}",
      "|",
      "(",
      ")",
      "<img",
      "\\href{",
      "あ",
      "漢",
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 40 }).map((a) => a.join("")),
        (input) => {
          return activeHtml(html(input)).length === 0;
        },
      ),
      { numRuns: 2000 },
    );
    expect(toPlainText("<b>x</b>", "ja")).toBe("<b>x</b>");
  });
});
