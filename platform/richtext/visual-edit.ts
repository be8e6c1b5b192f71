import { toggleMark } from "prosemirror-commands";
import type { Node as DocNode } from "prosemirror-model";
import { type Command, type EditorState, TextSelection, type Transaction } from "prosemirror-state";
import { TOOLBAR_COLORS, type ToolbarAction } from "./edit";
import { faithfulMarkup, visualSchema } from "./visual-doc";

/**
 * The toolbar's actions (platform/richtext/edit.ts) in the visual editor: the same six, applied
 * to the document instead of the markup. A change is kept only when the document's markup reads
 * back as the changed document (`faithfulMarkup`); otherwise the text stays as it was.
 */
export type VisualOutcome = { tr: Transaction } | { refused: "selectFirst" | "cannotApply" };

const RUBY_BASE_RESERVED = /[|()（）\n`{}*_]/;
const RUBY_READING_RESERVED = /[|()（）\n`]/;

/** The selected text when the selection is text only (no ruby, math or line break inside it). */
export function selectedText(state: EditorState): string | null {
  const { from, to } = state.selection;
  let textOnly = true;
  state.doc.nodesBetween(from, to, (node) => {
    if (!node.isText && node !== state.doc) textOnly = false;
  });
  return textOnly ? state.doc.textBetween(from, to) : null;
}

const { bold, underline, color } = visualSchema.marks;
const { ruby, math, br } = visualSchema.nodes;

/** Ruby over the selected text, keeping the marks it had. */
const addRuby =
  (reading: string): Command =>
  (state, dispatch) => {
    const base = selectedText(state);
    const { from, to } = state.selection;
    if (!base || RUBY_BASE_RESERVED.test(base) || reading === "" || RUBY_READING_RESERVED.test(reading)) return false;
    const marks = state.doc.nodeAt(from)?.marks ?? [];
    dispatch?.(state.tr.replaceWith(from, to, ruby.create({ base, reading }, null, marks)));
    return true;
  };

/** `node` in place of the selection, with the marks at the caret. */
const insert =
  (node: DocNode): Command =>
  (state, dispatch) => {
    dispatch?.(state.tr.replaceSelectionWith(node, true).scrollIntoView());
    return true;
  };

const setColor =
  (name: string): Command =>
  (state, dispatch) => {
    const { from, to, empty } = state.selection;
    if (empty || !(TOOLBAR_COLORS as readonly string[]).includes(name)) return false;
    dispatch?.(state.tr.addMark(from, to, color.create({ name })));
    return true;
  };

function commandOf(action: ToolbarAction): Command | null {
  switch (action.kind) {
    case "bold":
      return toggleMark(bold);
    case "underline":
      return toggleMark(underline);
    case "color":
      return setColor(action.name);
    case "ruby":
      return addRuby(action.reading.trim());
    case "math": {
      const tex = action.tex.trim();
      return tex === "" || tex.includes("`") ? null : insert(math.create({ tex }));
    }
    case "br":
      return insert(br.create());
  }
}

const WRAPS: ReadonlySet<ToolbarAction["kind"]> = new Set(["bold", "underline", "color", "ruby"]);

/** The transaction that applies `action` at the selection, or why it cannot be done there. */
export function visualAction(state: EditorState, action: ToolbarAction, maxLength?: number): VisualOutcome {
  if (WRAPS.has(action.kind) && state.selection.empty) return { refused: "selectFirst" };
  let tr: Transaction | null = null;
  const done = commandOf(action)?.(state, (t) => (tr = t)) ?? false;
  if (!done || !tr) return { refused: "cannotApply" };
  const applied: Transaction = tr;
  if (faithfulMarkup(applied.doc, maxLength) === null) return { refused: "cannotApply" };
  return { tr: applied };
}

/** The formula at `pos` replaced by `tex`. */
export function setMathTex(state: EditorState, pos: number, tex: string): Transaction | null {
  const node = state.doc.nodeAt(pos);
  if (node?.type !== math || tex.trim() === "" || tex.includes("`")) return null;
  return state.tr.setNodeMarkup(pos, null, { tex: tex.trim() });
}

/**
 * Home (`dir` -1) and End (1): the caret to the start or end of its line, whose ends are the text's and its line
 * breaks; with `extend` the selection grows to there. The editor moves it, not the browser: Chromium's own End left
 * the caret just after a ruby.
 */
export const lineEdge =
  (dir: -1 | 1, extend: boolean): Command =>
  (state, dispatch) => {
    const { $head, anchor } = state.selection;
    const start = $head.start();
    let edge = dir < 0 ? start : $head.end();
    $head.parent.forEach((child, offset) => {
      if (child.type !== br) return;
      const before = start + offset;
      if (dir > 0 && before >= $head.pos && before < edge) edge = before;
      if (dir < 0 && before + 1 <= $head.pos && before + 1 > edge) edge = before + 1;
    });
    dispatch?.(state.tr.setSelection(TextSelection.create(state.doc, extend ? anchor : edge, edge)).scrollIntoView());
    return true;
  };
