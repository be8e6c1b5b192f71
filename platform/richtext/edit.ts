import { ACCENT_NAMES } from "./colors";
import { parseRichText, type RichNode } from "./parse";
import { nodesToPlainText } from "./plain";

/**
 * The editor toolbar's transforms of stored markup (docs/product-design.md "Rich text"):
 * each wraps the selection, or inserts at it, in the markup the parser reads, so a teacher
 * never types markup. A transform is applied, then checked against the one parser: the
 * result must hold the intended node and read as the original plus what was inserted;
 * otherwise (a selection cutting through other markup, characters the markup reserves)
 * it is refused (null) and the text stays as it was.
 */
export interface Edit {
  text: string;
  start: number;
  end: number;
}

export type ToolbarAction =
  | { kind: "bold" }
  | { kind: "underline" }
  | { kind: "color"; name: ToolbarColor }
  | { kind: "ruby"; reading: string }
  | { kind: "math"; tex: string }
  | { kind: "br" };

/** The renderer's accent colours, stored by their bare name (`{red:…}`). */
export const TOOLBAR_COLORS = ACCENT_NAMES;
export type ToolbarColor = (typeof TOOLBAR_COLORS)[number];

/** A private-use character: plain text to the parser, so it marks the insertion point through any markup. */
const MARK = "\uE000";
const RUBY_BASE_RESERVED = /[|()（）\n`{}*_]/;
const RUBY_READING_RESERVED = /[|()（）\n`]/;

/** The text as read in plain Japanese and in kana (ruby bases and readings both count). */
const plainOf = (text: string) => {
  const nodes = parseRichText(text);
  return `${nodesToPlainText(nodes, "ja")}\u0000${nodesToPlainText(nodes, "ja-kana")}`;
};

function someNode(nodes: RichNode[], test: (n: RichNode) => boolean): boolean {
  return nodes.some((n) => test(n) || ("children" in n && someNode(n.children, test)));
}

/** Whether the mark is in the text of `markup`: not in a formula's TeX, whose plain text would read the same with it. */
const markInText = (markup: string) =>
  someNode(parseRichText(markup), (n) => n.type === "text" && n.value.includes(MARK));

/** What a wrap puts around the selection, and the node it must produce. */
function wrapping(
  action: ToolbarAction,
  selected: string,
): { open: string; close: string; is: (n: RichNode) => boolean } | null {
  const holds = (n: RichNode) =>
    "children" in n && nodesToPlainText(n.children, "ja") === nodesToPlainText(parseRichText(selected), "ja");
  switch (action.kind) {
    case "bold":
      return { open: "**", close: "**", is: (n) => n.type === "bold" && holds(n) };
    case "underline":
      return { open: "__", close: "__", is: (n) => n.type === "underline" && holds(n) };
    case "color":
      if (!(TOOLBAR_COLORS as readonly string[]).includes(action.name)) return null;
      return {
        open: `{${action.name}:`,
        close: "}",
        is: (n) => n.type === "color" && n.name === action.name && holds(n),
      };
    case "ruby": {
      const reading = action.reading.trim();
      if (reading === "" || RUBY_READING_RESERVED.test(reading) || RUBY_BASE_RESERVED.test(selected)) return null;
      return {
        open: "|",
        close: `(${reading})`,
        is: (n) =>
          n.type === "ruby" &&
          n.base === selected &&
          (n.reading === reading || n.reading === reading.replaceAll("・", "")),
      };
    }
    default:
      return null;
  }
}

/** What an insertion puts in place of the selection: the markup and the plain text it reads as. */
function insertion(action: ToolbarAction): { markup: string; plain: string; is: (n: RichNode) => boolean } | null {
  if (action.kind === "br") return { markup: "||", plain: "\n", is: (n) => n.type === "br" };
  if (action.kind !== "math") return null;
  const tex = action.tex.trim();
  if (tex === "" || tex.includes("`")) return null;
  return { markup: `\`${tex}\``, plain: tex, is: (n) => n.type === "math" && n.tex === tex };
}

/** `action` applied to `text` at the selection [start, end); null when it cannot be done there. */
export function applyToolbarAction(text: string, start: number, end: number, action: ToolbarAction): Edit | null {
  const from = Math.max(0, Math.min(start, end, text.length));
  const to = Math.min(text.length, Math.max(start, end));
  const before = text.slice(0, from);
  const selected = text.slice(from, to);
  const after = text.slice(to);
  if (text.includes(MARK)) return null;
  const insert = insertion(action);
  if (insert) {
    const result = before + insert.markup + after;
    const marked = plainOf(before + MARK + after);
    // the caret must not split other markup (`|` of a `||`, a ruby's reading, a formula): with the mark left out it
    // reads as before, and the mark is in the text
    if (marked.replaceAll(MARK, "") !== plainOf(before + after) || !markInText(before + MARK + after)) return null;
    if (plainOf(result) !== marked.replaceAll(MARK, insert.plain) || !someNode(parseRichText(result), insert.is))
      return null;
    const caret = from + insert.markup.length;
    return { text: result, start: caret, end: caret };
  }
  if (selected === "") return null;
  const wrap = wrapping(action, selected);
  if (!wrap) return null;
  const result = before + wrap.open + selected + wrap.close + after;
  const reads = (t: string) => (action.kind === "ruby" ? plainOf(t).split("\u0000")[0] : plainOf(t));
  if (reads(result) !== reads(text) || !someNode(parseRichText(result), wrap.is)) return null;
  return { text: result, start: from + wrap.open.length, end: from + wrap.open.length + selected.length };
}
