import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyToolbarAction, TOOLBAR_COLORS, type ToolbarAction } from "@/platform/richtext/edit";
import { parseRichText } from "@/platform/richtext/parse";
import { toPlainText } from "@/platform/richtext/plain";

const plain = (text: string) => toPlainText(text, "ja");

describe("rich-text toolbar transforms (platform/richtext/edit.ts)", () => {
  it("wraps the selection in each markup and keeps it selected", () => {
    expect(applyToolbarAction("水は透明", 2, 4, { kind: "bold" })).toEqual({ text: "水は**透明**", start: 4, end: 6 });
    expect(applyToolbarAction("水は透明", 0, 1, { kind: "underline" })).toEqual({
      text: "__水__は透明",
      start: 2,
      end: 3,
    });
    expect(applyToolbarAction("水は透明", 0, 1, { kind: "color", name: "red" })?.text).toBe("{red:水}は透明");
    expect(applyToolbarAction("水溶液はどれ", 0, 3, { kind: "ruby", reading: " すいようえき " })?.text).toBe(
      "|水溶液(すいようえき)はどれ",
    );
    expect(applyToolbarAction("一覧", 0, 2, { kind: "ruby", reading: "いち・らん" })?.text).toBe("|一覧(いち・らん)");
  });

  it("inserts a line break or math at the caret, or in place of the selection", () => {
    expect(applyToolbarAction("ab", 1, 1, { kind: "br" })).toEqual({ text: "a||b", start: 3, end: 3 });
    expect(applyToolbarAction("面積は", 3, 3, { kind: "math", tex: "\\frac{1}{2}ah" })).toEqual({
      text: "面積は`\\frac{1}{2}ah`",
      start: 18,
      end: 18,
    });
    expect(applyToolbarAction("x2です", 0, 2, { kind: "math", tex: "x^2" })?.text).toBe("`x^2`です");
    // inside bold, the break stays inside it
    expect(parseRichText(applyToolbarAction("**ab**", 3, 3, { kind: "br" })!.text)[0]).toMatchObject({ type: "bold" });
  });

  it.each<[string, number, number, ToolbarAction]>([
    ["水は透明", 1, 1, { kind: "bold" }], // nothing selected
    ["|漢字(かんじ)", 1, 3, { kind: "ruby", reading: "かん" }], // inside existing ruby
    ["**太い**字", 0, 4, { kind: "underline" }], // cuts through bold
    ["{red:赤}い", 3, 7, { kind: "bold" }], // cuts through a colour
    ["a*b", 0, 3, { kind: "ruby", reading: "え" }], // a base with a reserved character
    ["漢字", 0, 2, { kind: "ruby", reading: "か(ん" }], // a reading with one
    ["漢字", 0, 2, { kind: "ruby", reading: "  " }], // an empty reading
    ["式", 1, 1, { kind: "math", tex: "a`b" }], // a backtick ends math
    ["式", 1, 1, { kind: "math", tex: " " }],
    ["a|", 2, 2, { kind: "br" }], // would make `|||`
    ["x", 0, 1, { kind: "color", name: "magenta" as never }], // not the renderer's colour
    // inside a formula, even where the text would read the same (its TeX is its plain text) and the same formula is there
    ["`\\frac{1}{2}``x^2`ああ", 15, 15, { kind: "math", tex: "\\frac{1}{2}" }],
    ["`x^2`", 2, 2, { kind: "br" }],
    ["|漢字(かんじ)", 2, 2, { kind: "math", tex: "x" }], // inside a ruby's base
  ])("refuses %j [%i, %i) %j", (text, start, end, action) => {
    expect(applyToolbarAction(text, start, end, action)).toBeNull();
  });

  // characters with no markup meaning: any selection of such text can take any action
  const safeText = fc.string({
    unit: fc.constantFrom("あ", "漢", "字", "a", "1", " ", "。", "😀"),
    minLength: 1,
    maxLength: 30,
  });
  const wrapAction = fc.oneof(
    fc.constant<ToolbarAction>({ kind: "bold" }),
    fc.constant<ToolbarAction>({ kind: "underline" }),
    fc.constantFrom(...TOOLBAR_COLORS).map((name): ToolbarAction => ({ kind: "color", name })),
    fc.constantFrom("かん", "いち・らん", "ア").map((reading): ToolbarAction => ({ kind: "ruby", reading })),
  );
  const insertAction = fc.oneof(
    fc.constant<ToolbarAction>({ kind: "br" }),
    fc.constantFrom("x^2", "\\frac{1}{2}", "\\sqrt{x}").map((tex): ToolbarAction => ({ kind: "math", tex })),
  );
  const anyAction = fc.oneof(wrapAction, insertAction);
  const fraction = fc.double({ min: 0, max: 1, noNaN: true });
  const at = (text: string, f: number) => Math.floor(f * (text.length + 1)) % (text.length + 1);

  it("property: any sequence of actions on any plain text yields markup that reads as the text plus what was inserted", () => {
    fc.assert(
      fc.property(safeText, fc.array(fc.tuple(anyAction, fraction, fraction), { maxLength: 12 }), (original, steps) => {
        let text = original;
        const inserted: string[] = [];
        for (const [action, a, b] of steps) {
          const wraps = action.kind !== "br" && action.kind !== "math";
          const [s, e] = wraps ? [at(text, Math.min(a, b)), at(text, Math.max(a, b))] : [at(text, a), at(text, a)];
          const next = applyToolbarAction(text, s, e, action);
          if (next === null) continue;
          text = next.text;
          if (action.kind === "br") inserted.push("\n");
          if (action.kind === "math") inserted.push(action.tex);
        }
        // no markup character of the toolbar's is left literal, and removing what was inserted gives the original
        let rest = plain(text);
        for (const piece of inserted) {
          const i = rest.indexOf(piece);
          expect(i).toBeGreaterThanOrEqual(0);
          rest = rest.slice(0, i) + rest.slice(i + piece.length);
        }
        expect(rest).toBe(original);
        expect(rest).not.toMatch(/[*_{}|`]/);
      }),
      { numRuns: 400 },
    );
  });

  it("property: on plain text, a wrap of any selection and an insertion at any caret always succeed", () => {
    fc.assert(
      fc.property(safeText, anyAction, fraction, fraction, (text, action, a, b) => {
        const wraps = action.kind !== "br" && action.kind !== "math";
        const s = at(text, Math.min(a, b));
        const e = wraps ? Math.max(s + 1, at(text, Math.max(a, b))) : s;
        // a selection never splits a surrogate pair in a browser field at a character boundary
        fc.pre(!/[\uDC00-\uDFFF]/.test(text[s] ?? "") && !/[\uDC00-\uDFFF]/.test(text[e] ?? "") && e <= text.length);
        expect(applyToolbarAction(text, s, e, action)).not.toBeNull();
      }),
      { numRuns: 400 },
    );
  });

  it("property: on any text, an action never throws and, when done, keeps the reading and adds the intended markup", () => {
    const anyText = fc.string({
      unit: fc.constantFrom("a", "漢", "|", "(", ")", "*", "_", "{", "}", "`", ":", "r", "e", "d", "\n", "・"),
      maxLength: 24,
    });
    fc.assert(
      fc.property(anyText, anyAction, fraction, fraction, (text, action, a, b) => {
        // a field's selection starts before it ends (at() wraps, so order the two carets)
        const [s, e] = [at(text, a), at(text, b)].sort((x, y) => x - y) as [number, number];
        const next = applyToolbarAction(text, s, e, action);
        if (next === null) return;
        if (action.kind === "br" || action.kind === "math")
          expect(plain(next.text).length).toBe(
            plain(text.slice(0, s) + text.slice(e)).length + (action.kind === "br" ? 1 : action.tex.length),
          );
        else expect(plain(next.text)).toBe(plain(text));
      }),
      { numRuns: 1000 },
    );
  });
});
