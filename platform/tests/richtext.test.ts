import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { colorToken } from "@/platform/richtext/colors";
import { parseRichText, type RichNode } from "@/platform/richtext/parse";
import { nodesToPlainText, toPlainText } from "@/platform/richtext/plain";

describe("rich-text parser (docs/requirements.md §5)", () => {
  it("parses each markup", () => {
    expect(parseRichText("a||b")).toEqual([{ type: "text", value: "a" }, { type: "br" }, { type: "text", value: "b" }]);
    expect(parseRichText("|漢字(かんじ)です")).toEqual([
      { type: "ruby", base: "漢字", reading: "かんじ" },
      { type: "text", value: "です" },
    ]);
    expect(parseRichText("|漢字（かんじ）")).toEqual([{ type: "ruby", base: "漢字", reading: "かんじ" }]);
    expect(parseRichText("`x^2`")).toEqual([{ type: "math", tex: "x^2" }]);
    expect(parseRichText("{red:赤}")).toEqual([
      { type: "color", name: "red", children: [{ type: "text", value: "赤" }] },
    ]);
    expect(parseRichText("**太**")).toEqual([{ type: "bold", children: [{ type: "text", value: "太" }] }]);
    expect(parseRichText("__下__")).toEqual([{ type: "underline", children: [{ type: "text", value: "下" }] }]);
  });

  it("nests: ruby inside bold inside colour", () => {
    expect(parseRichText("{blue:**|重(おも)さ**}")).toEqual([
      {
        type: "color",
        name: "blue",
        children: [
          {
            type: "bold",
            children: [
              { type: "ruby", base: "重", reading: "おも" },
              { type: "text", value: "さ" },
            ],
          },
        ],
      },
    ]);
  });

  it.each(["**open", "__open", "{red:open", "`open", "|base(open", "{:x}", "{Red:x}", "**", "||"])(
    "keeps malformed markup %j as literal text",
    (input) => {
      expect(toPlainText(input, "ja")).toBe(input === "||" ? "\n" : input);
    },
  );

  it("renders ruby by display language", () => {
    const input = "|水溶液(すいようえき)を|観察(かんさつ)";
    expect(toPlainText(input, "ja")).toBe("水溶液を観察");
    expect(toPlainText(input, "ja-kana")).toBe("すいようえきをかんさつ");
    expect(toPlainText(input, "ja-ruby")).toBe("水溶液を観察");
  });

  it("maps colour names to tokens", () => {
    expect(colorToken("red")).toBe("accent-red");
    expect(colorToken("accent-red")).toBe("accent-red");
    expect(colorToken("accent")).toBe("accent");
    expect(colorToken("light-gray")).toBe("light-gray");
    expect(colorToken("accent-white")).toBeNull();
    expect(colorToken("magenta")).toBeNull();
  });

  it("stays fast on adversarial nesting", () => {
    const evil = "{a:`**|x(".repeat(2500);
    const start = performance.now();
    expect(toPlainText(evil, "ja")).toBe(evil);
    const deep = toPlainText("{red:".repeat(5000) + "x" + "}".repeat(5000), "ja");
    expect(deep).toContain("x"); // nesting past the depth limit stays literal, nothing is lost
    expect(performance.now() - start).toBeLessThan(5000);
  });
});

function texts(nodes: RichNode[]): string {
  return nodes
    .map((n) => {
      if (n.type === "text") return n.value;
      if (n.type === "br") return "";
      if (n.type === "ruby") return n.base + n.reading;
      if (n.type === "math") return n.tex;
      return texts(n.children);
    })
    .join("");
}

describe("rich-text properties", () => {
  const markupChars = fc.constantFrom(
    "|",
    "(",
    ")",
    "`",
    "{",
    "}",
    ":",
    "*",
    "_",
    "red",
    "あ",
    "漢",
    "a",
    " ",
    "<",
    ">",
    "\n",
    "・",
  );
  const markupish = fc.array(markupChars, { maxLength: 80 }).map((a) => a.join(""));

  it("never throws, on random and markup-heavy strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: "binary", maxLength: 100 }), markupish),
        (s) => {
          const nodes = parseRichText(s);
          nodesToPlainText(nodes, "ja-kana");
          return Array.isArray(nodes);
        },
      ),
      { numRuns: 3000 },
    );
  }, 30_000); // 3000 runs: ~5 s of CPU on a loaded box

  it("keeps plain text (no markup characters) unchanged", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }).filter((s) => !/[|`{*_]/.test(s)),
        (s) => toPlainText(s, "ja") === s,
      ),
      { numRuns: 2000 },
    );
  });

  it("never loses a text character other than markup delimiters", () => {
    fc.assert(
      fc.property(markupish, (s) => {
        const kept = texts(parseRichText(s));
        // delimiters (the mono-ruby ・ too) and colour names may be consumed; every other character must survive
        const strip = (x: string) => x.replace(/[|(){}`*_:a-z・]/g, "");
        return strip(kept) === strip(s.replace(/\|\|/g, ""));
      }),
      { numRuns: 3000 },
    );
  });
});
