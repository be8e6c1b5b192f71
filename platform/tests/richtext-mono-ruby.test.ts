import fc from "fast-check";
import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseRichText } from "@/platform/richtext/parse";
import { toPlainText } from "@/platform/richtext/plain";
import { mathAsSource, renderNodes } from "@/platform/richtext/render-core";

const html = (input: string, lang: "ja" | "ja-ruby" | "ja-kana" = "ja-ruby") =>
  renderToStaticMarkup(createElement(Fragment, null, ...renderNodes(parseRichText(input), lang, mathAsSource)));

describe("mono-ruby: one reading per base character (|漢字(かん・じ))", () => {
  it("parses a reading split with ・ into one part per base character", () => {
    expect(parseRichText("|一覧(いち・らん)")).toEqual([
      {
        type: "ruby",
        base: "一覧",
        reading: "いちらん",
        parts: [
          { base: "一", reading: "いち" },
          { base: "覧", reading: "らん" },
        ],
      },
    ]);
  });

  it("renders one <rt> per character, so a long reading does not spread the kanji apart", () => {
    expect(html("|一覧(いち・らん)")).toBe(
      "<ruby>一<rp>(</rp><rt>いち</rt><rp>)</rp>覧<rp>(</rp><rt>らん</rt><rp>)</rp></ruby>",
    );
    expect(html("|先生(せん・せい)です")).toBe(
      "<ruby>先<rp>(</rp><rt>せん</rt><rp>)</rp>生<rp>(</rp><rt>せい</rt><rp>)</rp></ruby>です",
    );
  });

  it("joins the parts in kana mode and shows the base in plain mode", () => {
    expect(html("|一覧(いち・らん)", "ja-kana")).toBe("いちらん");
    expect(html("|一覧(いち・らん)", "ja")).toBe("一覧");
    expect(toPlainText("|先生(せん・せい)", "ja-kana")).toBe("せんせい");
    expect(toPlainText("|先生(せん・せい)", "ja-ruby")).toBe("先生");
  });

  it("keeps group ruby (jukujikun, or parts that do not match the characters)", () => {
    expect(html("|今日(きょう)")).toBe("<ruby>今日<rp>(</rp><rt>きょう</rt><rp>)</rp></ruby>");
    // three parts for two characters: one group reading, written as it stands
    expect(parseRichText("|東京(と・う・きょう)")).toEqual([{ type: "ruby", base: "東京", reading: "と・う・きょう" }]);
    // an empty part is not a reading
    expect(parseRichText("|一覧(いち・)")).toEqual([{ type: "ruby", base: "一覧", reading: "いち・" }]);
    // a single character is group ruby whatever its reading
    expect(parseRichText("|日(にち)")).toEqual([{ type: "ruby", base: "日", reading: "にち" }]);
  });

  it("counts characters, not UTF-16 units (a surrogate pair, a variation selector)", () => {
    const [node] = parseRichText("|𠮷野(よし・の)");
    expect(node).toMatchObject({
      parts: [
        { base: "𠮷", reading: "よし" },
        { base: "野", reading: "の" },
      ],
    });
    const [ivs] = parseRichText("|葛\u{E0100}城(かつら・ぎ)");
    expect(ivs).toMatchObject({
      parts: [
        { base: "葛\u{E0100}", reading: "かつら" },
        { base: "城", reading: "ぎ" },
      ],
    });
  });

  it("property: the parts' bases and readings put back together are the base and the reading", () => {
    const kanji = fc.constantFrom("漢", "字", "一", "覧", "先", "生", "𠮷");
    const kana = fc
      .array(fc.constantFrom("あ", "い", "か", "ん", "ょ"), { minLength: 1, maxLength: 4 })
      .map((a) => a.join(""));
    fc.assert(
      fc.property(fc.array(fc.tuple(kanji, kana), { minLength: 2, maxLength: 6 }), (pairs) => {
        const source = `|${pairs.map((p) => p[0]).join("")}(${pairs.map((p) => p[1]).join("・")})`;
        const [node] = parseRichText(source);
        if (node?.type !== "ruby" || !node.parts) return false;
        return (
          node.parts.map((p) => p.base).join("") === node.base &&
          node.parts.map((p) => p.reading).join("") === node.reading &&
          toPlainText(source, "ja-kana") === pairs.map((p) => p[1]).join("") &&
          (html(source).match(/<rt>/g) ?? []).length === pairs.length
        );
      }),
      { numRuns: 500 },
    );
  });
});
