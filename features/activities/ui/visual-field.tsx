"use client";
import { useTranslations } from "next-intl";
import { history, redo, undo } from "prosemirror-history";
import { keymap } from "prosemirror-keymap";
import { type Node as DocNode, Slice } from "prosemirror-model";
import { type Command, EditorState, NodeSelection, TextSelection } from "prosemirror-state";
import { EditorView } from "prosemirror-view";
import { type RefObject, useEffect, useRef } from "react";
import { isValidTex, typeset } from "@/platform/richtext/katex-render";
import { docOfMarkup, faithfulMarkup, markupOfDoc, visualSchema } from "@/platform/richtext/visual-doc";
import { lineEdge, selectedText, setMathTex, visualAction } from "@/platform/richtext/visual-edit";
import { useNotify } from "@/platform/ui/notifications";
import { usePlainText } from "@/platform/ui/use-plain-text";
import type { ToolbarTarget } from "./markup-toolbar";

/** A change made by the toolbar or a formula's field (not typing): the form's undo history keeps it apart. */
const NOT_TYPED = "notTyped";

/** The label texts a formula's in-place field needs. */
interface MathLabels {
  tex: string;
  invalid: string;
}

/**
 * A formula as students see it (typeset with the server's KaTeX options); a click, or Enter when it
 * is selected, opens a field with its TeX in place, typeset again as it is typed. Enter or leaving
 * the field keeps TeX that KaTeX reads; Escape leaves the formula as it was.
 */
class MathView {
  dom: HTMLElement;
  private rendered: HTMLElement;
  private editing: HTMLElement | null = null;

  constructor(
    private node: DocNode,
    private view: EditorView,
    private getPos: () => number | undefined,
    private labels: MathLabels,
  ) {
    this.dom = document.createElement("span");
    this.dom.className = "visual-math";
    this.dom.dataset.testid = "visual-math";
    this.rendered = document.createElement("span");
    this.dom.append(this.rendered);
    drawTex(this.rendered, this.tex);
    // a press on the formula opens its field; the editor neither selects it nor takes the focus back
    this.dom.addEventListener("mousedown", (e) => {
      if (this.editing?.contains(e.target as Node)) return;
      e.preventDefault();
      this.open();
    });
    this.dom.addEventListener("math-edit", () => this.open());
  }

  private get tex() {
    return this.node.attrs.tex as string;
  }

  private open() {
    if (this.editing) return;
    const box = document.createElement("span");
    box.className = "visual-math-edit";
    const input = document.createElement("input");
    input.value = this.tex;
    input.className = "math-tex";
    input.spellcheck = false;
    input.autocomplete = "off";
    input.setAttribute("aria-label", this.labels.tex);
    input.dataset.testid = "visual-math-tex";
    const preview = document.createElement("span");
    preview.className = "math-preview";
    preview.setAttribute("aria-live", "polite");
    const show = () => {
      const valid = isValidTex(input.value);
      input.toggleAttribute("aria-invalid", !valid);
      if (valid) drawTex(preview, input.value);
      else preview.textContent = this.labels.invalid;
    };
    input.addEventListener("input", show);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        this.commit(input.value);
      } else if (e.key === "Escape") {
        e.preventDefault();
        this.close();
        this.view.focus();
      }
    });
    input.addEventListener("blur", () => this.commit(input.value, true));
    box.append(input, preview);
    this.dom.append(box);
    this.rendered.hidden = true;
    this.editing = box;
    show();
    input.focus();
  }

  /** Keeps `tex` when KaTeX reads it; on leaving the field, TeX it cannot read is dropped. */
  private commit(tex: string, leaving = false) {
    if (!this.editing) return;
    if (!isValidTex(tex)) {
      if (leaving) this.close();
      return;
    }
    const pos = this.getPos();
    this.close();
    if (pos === undefined || tex.trim() === this.tex) {
      if (!leaving) this.view.focus();
      return;
    }
    const tr = setMathTex(this.view.state, pos, tex);
    if (tr) this.view.dispatch(tr.setMeta(NOT_TYPED, true));
    if (!leaving) this.view.focus();
  }

  private close() {
    const box = this.editing;
    this.editing = null;
    box?.remove();
    this.rendered.hidden = false;
  }

  update(node: DocNode) {
    if (node.type !== this.node.type) return false;
    if (node.attrs.tex !== this.tex) drawTex(this.rendered, node.attrs.tex as string);
    this.node = node;
    return true;
  }

  selectNode() {
    this.dom.classList.add("visual-selected");
  }

  deselectNode() {
    this.dom.classList.remove("visual-selected");
  }

  stopEvent(event: Event) {
    return (
      event.type.startsWith("mouse") ||
      event.type === "click" ||
      (this.editing?.contains(event.target as Node) ?? false)
    );
  }

  ignoreMutation() {
    return true;
  }
}

/** KaTeX's HTML for `tex` (trust off, as students see it), or its source marked as an error. */
function drawTex(into: HTMLElement, tex: string) {
  const html = typeset(tex);
  if (html === null) {
    into.className = "rt-math-error";
    into.textContent = tex;
  } else {
    into.className = "rt-math";
    into.innerHTML = html;
  }
}

/** Enter opens a selected formula's field; otherwise it is a line break (multi-line) or nothing. */
const enter =
  (multiline: boolean): Command =>
  (state, dispatch, view) => {
    const selected = state.selection.from + 1 === state.selection.to ? state.doc.nodeAt(state.selection.from) : null;
    if (selected?.type === visualSchema.nodes.math && view) {
      view.nodeDOM(state.selection.from)?.dispatchEvent(new Event("math-edit"));
      return true;
    }
    if (multiline && dispatch) dispatch(state.tr.replaceSelectionWith(visualSchema.nodes.br.create(), true));
    return true;
  };

/** The editable element's attributes (those set, JSON-encoded so that an effect can compare them). */
function domAttributes(json: string): Record<string, string> {
  const set = Object.entries(JSON.parse(json) as Record<string, string | null>).filter(([, v]) => v != null);
  return { ...Object.fromEntries(set), class: "visual-field" } as Record<string, string>;
}

function stateOf(markup: string, multiline: boolean) {
  return EditorState.create({
    doc: docOfMarkup(markup),
    plugins: [
      history(),
      keymap({
        "Mod-z": undo,
        "Mod-y": redo,
        "Shift-Mod-z": redo,
        Enter: enter(multiline),
        Home: lineEdge(-1, false),
        End: lineEdge(1, false),
        "Shift-Home": lineEdge(-1, true),
        "Shift-End": lineEdge(1, true),
      }),
    ],
  });
}

/**
 * The browser's selection in the editor made its state's selection: a key pressed just before a
 * shortcut (End, then Ctrl+M) may have moved the caret before the editor read it.
 */
function readSelection(view: EditorView) {
  const sel = document.getSelection();
  const { selection } = view.state;
  if (!view.hasFocus() || selection instanceof NodeSelection || !sel?.anchorNode || !sel.focusNode) return;
  if (!view.dom.contains(sel.anchorNode) || !view.dom.contains(sel.focusNode)) return;
  const anchor = view.posAtDOM(sel.anchorNode, sel.anchorOffset);
  const head = view.posAtDOM(sel.focusNode, sel.focusOffset);
  if (anchor < 0 || head < 0 || (anchor === selection.anchor && head === selection.head)) return;
  view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, anchor, head)));
}

/** The toolbar's target: the editor's selection, its actions applied to the document (platform/richtext/visual-edit.ts). */
function useVisualTarget(
  viewRef: RefObject<EditorView | null>,
  targetRef: RefObject<ToolbarTarget | null>,
  maxLength: number,
) {
  useEffect(() => {
    targetRef.current = {
      remember() {
        if (viewRef.current) readSelection(viewRef.current);
        const state = viewRef.current?.state;
        if (!state) return "";
        const { from, to } = state.selection;
        return selectedText(state) ?? state.doc.textBetween(from, to, "", (n) => (n.attrs.base as string) ?? "");
      },
      apply(action) {
        const v = viewRef.current;
        if (!v) return "cannotApply";
        const outcome = visualAction(v.state, action, maxLength);
        if ("refused" in outcome) return outcome.refused;
        v.dispatch(outcome.tr.setMeta(NOT_TYPED, true));
        return () => v.focus();
      },
    };
  });
}

/**
 * The visual editor of one text field (loaded only when a teacher chooses the visual mode):
 * bold, underline, colour, ruby over the kanji, line breaks and typeset math as students see
 * them. The field's value stays the markup: each change is written back as markup that reads
 * as the changed document, or refused; opening and leaving the mode never rewrites the text.
 */
export default function VisualField({
  value,
  onChange,
  targetRef,
  multiline,
  maxLength,
  attributes,
}: {
  value: string;
  onChange: (next: string, typed: boolean) => void;
  targetRef: RefObject<ToolbarTarget | null>;
  multiline: boolean;
  maxLength: number;
  attributes: Record<string, string | undefined>;
}) {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  const notify = useNotify();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const emitted = useRef(value);
  const latest = useRef({ onChange, refuse: () => {} });
  useEffect(() => {
    latest.current = { onChange, refuse: () => notify({ message: t("cannotApply"), kind: "error" }) };
  });
  const labels = { tex: plain(t("mathTex")), invalid: plain(t("mathInvalid")) };

  useEffect(() => {
    const v: EditorView = new EditorView(host.current, {
      state: stateOf(emitted.current, multiline),
      attributes: domAttributes(JSON.stringify(attributes)),
      nodeViews: { math: (node, editorView, getPos) => new MathView(node, editorView, getPos, labels) },
      clipboardTextSerializer: (slice) => markupOfDoc(visualSchema.nodes.doc.create(null, slice.content)),
      clipboardTextParser: (text) => new Slice(docOfMarkup(text.replaceAll(/\r?\n/g, "||")).content, 0, 0),
      dispatchTransaction(tr) {
        const next = v.state.apply(tr);
        if (!tr.docChanged) return v.updateState(next);
        const markup = faithfulMarkup(next.doc, maxLength);
        if (markup === null) return latest.current.refuse();
        v.updateState(next);
        emitted.current = markup;
        latest.current.onChange(markup, tr.getMeta(NOT_TYPED) !== true);
      },
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // the view is made once; later values and attributes reach it through the effects below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const attributeKey = JSON.stringify(attributes);
  useEffect(() => {
    view.current?.setProps({ attributes: domAttributes(attributeKey) });
  }, [attributeKey]);

  // a value from outside (the form's undo, furigana proposals) replaces the document
  useEffect(() => {
    const v = view.current;
    if (!v || value === emitted.current) return;
    emitted.current = value;
    v.updateState(stateOf(value, multiline));
  }, [value, multiline]);

  useVisualTarget(view, targetRef, maxLength);

  return <div ref={host} className="visual-field-host" />;
}
