import fc from "fast-check";
import type { Mark, Node as DocNode } from "prosemirror-model";
import { EditorState, TextSelection } from "prosemirror-state";
import { describe, expect, it } from "vitest";
import { toPlainText } from "@/platform/richtext/plain";
import { docOfMarkup, faithfulMarkup, markupOfDoc, visualSchema } from "@/platform/richtext/visual-doc";
import { lineEdge, setMathTex, visualAction } from "@/platform/richtext/visual-edit";

const { bold, underline, color } = visualSchema.marks;
const { ruby, math, br } = visualSchema.nodes;

/** Text with no character the markup reserves: Japanese, Latin, digits, punctuation, an emoji. */
const plainText = fc.string({
  unit: fc.constantFrom("あ", "ア", "漢", "字", "水", "a", "Z", "1", " ", "。", "、", "？", "😀", "ー"),
  minLength: 1,
  maxLength: 6,
});
const kana = fc.string({ unit: fc.constantFrom("あ", "か", "ん", "じ", "ア", "ー"), minLength: 1, maxLength: 5 });
const kanjiBase = fc.string({ unit: fc.constantFrom("漢", "字", "水", "今", "日"), minLength: 1, maxLength: 4 });
const tex = fc.constantFrom("x^2", "\\frac{1}{2}", "\\sqrt{x}", "a_{n}", "\\alpha + \\beta");
const colourName = fc.constantFrom("red", "blue", "green", "accent", "gray", "yellow");

/** A base with one ・-separated reading per character (mono-ruby) or one reading over all of it (group ruby). */
const rubyAttrs = fc.oneof(
  fc.tuple(kanjiBase, kana).map(([base, reading]) => ({ base, reading })),
  fc
    .tuple(kanjiBase, fc.array(kana, { minLength: 4, maxLength: 4 }))
    .map(([base, readings]) => ({ base, reading: readings.slice(0, [...base].length).join("・") })),
);

const marksArb = fc
  .record({ b: fc.boolean(), u: fc.boolean(), c: fc.option(colourName, { nil: undefined }) })
  .map(({ b, u, c }) => {
    const marks: Mark[] = [];
    if (c) marks.push(color.create({ name: c }));
    if (b) marks.push(bold.create());
    if (u) marks.push(underline.create());
    return marks;
  });

const leafArb: fc.Arbitrary<(marks: readonly Mark[]) => DocNode> = fc.oneof(
  { weight: 4, arbitrary: plainText.map((t) => (marks: readonly Mark[]) => visualSchema.text(t, marks)) },
  { weight: 1, arbitrary: fc.constant((marks: readonly Mark[]) => br.create(null, null, marks)) },
  { weight: 2, arbitrary: rubyAttrs.map((attrs) => (marks: readonly Mark[]) => ruby.create(attrs, null, marks)) },
  { weight: 2, arbitrary: tex.map((t) => (marks: readonly Mark[]) => math.create({ tex: t }, null, marks)) },
);

/** A visual document: text, line breaks, ruby and math, each with any marks (colour, bold, underline). */
const documents = fc.array(fc.tuple(leafArb, marksArb), { maxLength: 12 }).map((items) =>
  visualSchema.nodes.doc.create(
    null,
    items.map(([leaf, marks]) => leaf(marks)),
  ),
);

/**
 * Markup as a teacher types it: spans nested in any order over text, ruby (either form), math and line
 * breaks (a span never inside one of its own kind: the parser closes `**` at the next `**`).
 */
function typedMarkup(depth: number, inBold = false, inUnderline = false): fc.Arbitrary<string> {
  const parts: fc.Arbitrary<string>[] = [
    plainText,
    fc.constant("||"),
    rubyAttrs.map(({ base, reading }) => `|${base}(${reading})`),
    tex.map((t) => `\`${t}\``),
  ];
  if (depth > 0) {
    if (!inBold) parts.push(typedMarkup(depth - 1, true, inUnderline).map((m) => `**${m}**`));
    if (!inUnderline) parts.push(typedMarkup(depth - 1, inBold, true).map((m) => `__${m}__`));
    parts.push(fc.tuple(colourName, typedMarkup(depth - 1, inBold, inUnderline)).map(([c, m]) => `{${c}:${m}}`));
  }
  return fc.array(fc.oneof(...parts), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
}

describe("visual editor document", () => {
  it("visual → markup → visual is identity on generated documents, and that markup reads back to itself", () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const markup = markupOfDoc(doc);
        expect(docOfMarkup(markup).eq(doc)).toBe(true);
        expect(markupOfDoc(docOfMarkup(markup))).toBe(markup);
        expect(faithfulMarkup(doc)).toBe(markup);
      }),
      { numRuns: 500 },
    );
  });

  it("markup → visual → markup keeps every typed text's document and what students read in all three languages", () => {
    fc.assert(
      fc.property(typedMarkup(3), (markup) => {
        const doc = docOfMarkup(markup);
        const again = markupOfDoc(doc);
        expect(docOfMarkup(again).eq(doc)).toBe(true);
        expect(markupOfDoc(docOfMarkup(again))).toBe(again);
        for (const lang of ["ja", "ja-ruby", "ja-kana"] as const)
          expect(toPlainText(again, lang)).toBe(toPlainText(markup, lang));
      }),
      { numRuns: 500 },
    );
  });

  it("markup → visual → markup is identity on the texts a teacher types, nesting, ruby, math, colours and line breaks included", () => {
    const texts = [
      "",
      "水溶液はどれ",
      "|水溶液(すいようえき)は**どれ**`\\frac{1}{2}`",
      "**太字の中に{red:赤い|字(じ)}**と__下線__",
      "{blue:**青い太字**と__下線__}||次の行",
      "**{red:赤}と太字**",
      "|漢字(かん・じ)と|今日(きょう)",
      "**__`x^2`__**",
      "a * b _ c | d ( e ) { f }",
      "1行目\n2行目",
    ];
    for (const text of texts) expect(markupOfDoc(docOfMarkup(text))).toBe(text);
  });

  it("any string, reserved characters included, reads back as the same document through its markup or is refused", () => {
    const anyText = fc.string({
      unit: fc.constantFrom(
        "a",
        "漢",
        "|",
        "(",
        ")",
        "（",
        "）",
        "*",
        "_",
        "{",
        "}",
        "`",
        ":",
        "r",
        "e",
        "d",
        "\n",
        "・",
      ),
      maxLength: 30,
    });
    fc.assert(
      fc.property(anyText, (text) => {
        const doc = docOfMarkup(text);
        const markup = faithfulMarkup(doc);
        if (markup !== null) expect(docOfMarkup(markup).eq(doc)).toBe(true);
        for (const lang of ["ja", "ja-kana"] as const)
          expect(toPlainText(markupOfDoc(doc), lang) === toPlainText(text, lang) || markup === null).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

/** The state of `markup` with the characters [from, to) of its plain Japanese reading selected. */
function selecting(markup: string, from: number, to: number): EditorState {
  const state = EditorState.create({ doc: docOfMarkup(markup) });
  return state.apply(state.tr.setSelection(TextSelection.create(state.doc, from, to)));
}

function markupAfter(state: EditorState, action: Parameters<typeof visualAction>[1]): string | null {
  const outcome = visualAction(state, action);
  return "tr" in outcome ? markupOfDoc(outcome.tr.doc) : null;
}

describe("visual editor edits write the markup a teacher would type", () => {
  it("bold, underline and colour over a range", () => {
    expect(markupAfter(selecting("水溶液はどれ", 4, 6), { kind: "bold" })).toBe("水溶液は**どれ**");
    expect(markupAfter(selecting("水溶液はどれ", 0, 3), { kind: "underline" })).toBe("__水溶液__はどれ");
    expect(markupAfter(selecting("水溶液はどれ", 0, 3), { kind: "color", name: "red" })).toBe("{red:水溶液}はどれ");
    expect(markupAfter(selecting("水は**透明**", 2, 4), { kind: "bold" })).toBe("水は透明");
    expect(markupAfter(selecting("{red:赤い字}", 0, 2), { kind: "color", name: "blue" })).toBe("{blue:赤い}{red:字}");
  });

  it("ruby over a range keeps its marks; a range with ruby or math inside is refused", () => {
    expect(markupAfter(selecting("水溶液はどれ", 0, 3), { kind: "ruby", reading: "すいようえき" })).toBe(
      "|水溶液(すいようえき)はどれ",
    );
    expect(markupAfter(selecting("**漢字**です", 0, 2), { kind: "ruby", reading: "かん・じ" })).toBe(
      "**|漢字(かん・じ)**です",
    );
    expect(visualAction(selecting("|水(みず)と油", 0, 3), { kind: "ruby", reading: "みずと" })).toEqual({
      refused: "cannotApply",
    });
    expect(visualAction(selecting("水", 1, 1), { kind: "ruby", reading: "みず" })).toEqual({
      refused: "selectFirst",
    });
  });

  it("math and a line break at the caret; a formula edited in place", () => {
    expect(markupAfter(selecting("答えは", 3, 3), { kind: "math", tex: "\\frac{1}{2}" })).toBe("答えは`\\frac{1}{2}`");
    expect(markupAfter(selecting("**太字**", 1, 1), { kind: "br" })).toBe("**太||字**");
    // right after a span the insertion stays outside it, as a teacher typing the markup would write it
    expect(markupAfter(selecting("は**どれ**", 3, 3), { kind: "math", tex: "x" })).toBe("は**どれ**`x`");
    const state = selecting("x = `x^2`", 0, 0);
    const tr = setMathTex(state, 4, "x^3");
    expect(tr && markupOfDoc(tr.doc)).toBe("x = `x^3`");
    expect(setMathTex(state, 4, "a`b")).toBeNull();
  });

  it("Home and End move the caret to its line's start and end, past a ruby, a line break ending a line; with Shift they select", () => {
    const after = (state: EditorState, dir: -1 | 1, extend = false) => {
      let next = state;
      lineEdge(dir, extend)(state, (tr) => (next = state.apply(tr)));
      return [next.selection.anchor, next.selection.head];
    };
    // the ruby is one node (0–1), then は (1–2) and どれ (2–4)
    const ruby = selecting("|水溶液(すいようえき)は**どれ**", 1, 1);
    expect(after(ruby, 1)).toEqual([4, 4]);
    expect(after(ruby, -1)).toEqual([0, 0]);
    // あい (0–2), the line break (2–3), うえ (3–5)
    expect(after(selecting("あい||うえ", 4, 4), -1)).toEqual([3, 3]);
    expect(after(selecting("あい||うえ", 4, 4), 1, true)).toEqual([4, 5]);
    expect(after(selecting("あい||うえ", 1, 1), 1)).toEqual([2, 2]);
    expect(after(selecting("あい||うえ", 2, 2), 1)).toEqual([2, 2]);
    expect(after(selecting("あい||うえ", 3, 3), -1)).toEqual([3, 3]);
  });

  it("a change whose markup would read differently is refused: a typed | before a ruby", () => {
    // 「a」 then the ruby |b(c): a "|" typed between them would be written "a||b(c)", a line break
    const state = selecting("a|b(c)", 1, 1);
    const typed = state.apply(state.tr.insertText("|", 1));
    expect(faithfulMarkup(typed.doc)).toBeNull();
  });
});
