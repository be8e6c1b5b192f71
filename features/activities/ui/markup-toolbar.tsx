"use client";
import "./editor.css";
import { useTranslations } from "next-intl";
import { type KeyboardEvent as ReactKeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { applyToolbarAction, TOOLBAR_COLORS, type ToolbarAction } from "@/platform/richtext/edit";
import { useNotify } from "@/platform/ui/notifications";
import { PopoverMenu } from "@/platform/ui/popover-menu";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { MathDialog, RubyDialog } from "./markup-dialogs";

type Dialog = { kind: "ruby"; base: string } | { kind: "math"; initial: string } | null;
type Refusal = "selectFirst" | "cannotApply";

/**
 * What the toolbar formats: the markup field or the visual editor. `remember` keeps the selection
 * (a button press or a dialog must not lose it) and returns its text; `apply` changes the text at
 * it and returns what to do once the change is drawn (focus, selection), or why it was refused.
 */
export interface ToolbarTarget {
  remember(): string;
  apply(action: ToolbarAction): (() => void) | Refusal;
}

/** The markup field as a toolbar target: the action written into its value as the stored markup. */
export function useFieldTarget(
  fieldRef: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  onChange: (next: string) => void,
): RefObject<ToolbarTarget | null> {
  const selection = useRef({ start: 0, end: 0 });
  const target = useRef<ToolbarTarget | null>(null);
  useEffect(() => {
    target.current = {
      remember() {
        const field = fieldRef.current;
        if (field)
          selection.current = { start: field.selectionStart ?? value.length, end: field.selectionEnd ?? value.length };
        return value.slice(selection.current.start, selection.current.end);
      },
      apply(action) {
        const { start, end } = selection.current;
        const next = applyToolbarAction(value, start, end, action);
        if (!next)
          return action.kind !== "br" && action.kind !== "math" && start === end ? "selectFirst" : "cannotApply";
        onChange(next.text);
        return () => {
          const field = fieldRef.current;
          field?.focus();
          field?.setSelectionRange(next.start, next.end);
        };
      },
    };
  });
  return target;
}

/**
 * The formatting toolbar over a text field: bold, underline, colour, ruby, math, line break,
 * written into the markup field's value (platform/richtext/edit.ts) or into the visual editor's
 * document (platform/richtext/visual-edit.ts), never typed by the teacher. One tab stop (arrow keys
 * move between its buttons); Ctrl+B, Ctrl+U, Ctrl+M and Shift+Enter work in the field itself
 * (keys pressed inside `keysRef`, the field's box).
 */
export function MarkupToolbar({
  target,
  keysRef,
}: {
  target: RefObject<ToolbarTarget | null>;
  keysRef: RefObject<HTMLElement | null>;
}) {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  const notify = useNotify();
  const [dialog, setDialog] = useState<Dialog>(null);

  const remember = () => target.current?.remember() ?? "";
  /** Applies `action` at the remembered selection; false (and a message) when it cannot be done there. */
  const apply = (action: ToolbarAction): boolean => {
    const result: { done: (() => void) | Refusal } = { done: "cannotApply" };
    flushSync(() => {
      result.done = target.current?.apply(action) ?? "cannotApply";
      if (typeof result.done === "function") setDialog(null); // the modal dialog leaves first: the field behind it could not take the focus
    });
    const { done } = result;
    if (typeof done !== "function") {
      if (action.kind !== "ruby") notify({ message: t(done), kind: "error" });
      return false;
    }
    done();
    return true;
  };
  const run = (action: ToolbarAction["kind"]) => {
    const selected = remember();
    if (action === "bold" || action === "underline" || action === "br") apply({ kind: action });
    else if (action === "math") setDialog({ kind: "math", initial: selected });
    else if (action === "ruby") {
      if (selected === "") notify({ message: t("selectFirst"), kind: "error" });
      else setDialog({ kind: "ruby", base: selected });
    }
  };
  useFieldShortcuts(keysRef, run);
  const { bar, onBarKey } = useToolbarFocus();
  const press = { remember, run };

  return (
    <div
      ref={bar}
      role="toolbar"
      aria-label={plain(t("label"))}
      className="markup-toolbar"
      onKeyDown={onBarKey}
      onFocus={() => remember()}
    >
      <ToolbarButton {...press} action="bold" label="bold" text="B" keys="Control+B" />
      <ToolbarButton {...press} action="underline" label="underline" text="U" keys="Control+U" />
      <ColorMenu onColor={(name) => apply({ kind: "color", name })} />
      <ToolbarButton {...press} action="ruby" label="ruby" text={plain(t("rubyShort"))} />
      <ToolbarButton {...press} action="math" label="math" text="∑" keys="Control+M" />
      <ToolbarButton {...press} action="br" label="lineBreak" text="↵" keys="Shift+Enter" />
      <ToolbarDialog dialog={dialog} onClose={() => setDialog(null)} apply={apply} />
    </div>
  );
}

/** The open ruby or math dialog, if any; inserting applies its markup at the remembered selection. */
function ToolbarDialog({
  dialog,
  onClose,
  apply,
}: {
  dialog: Dialog;
  onClose: () => void;
  apply: (action: ToolbarAction) => boolean;
}) {
  return (
    <>
      {dialog?.kind === "ruby" ? (
        <RubyDialog base={dialog.base} onClose={onClose} onInsert={(reading) => apply({ kind: "ruby", reading })} />
      ) : null}
      {dialog?.kind === "math" ? (
        <MathDialog initial={dialog.initial} onClose={onClose} onInsert={(tex) => apply({ kind: "math", tex })} />
      ) : null}
    </>
  );
}

/**
 * Ctrl+B, Ctrl+U, Ctrl+M and Shift+Enter in the field's box run the toolbar's action (the latest `run`):
 * the box holds the markup field or, once loaded, the visual editor.
 */
function useFieldShortcuts(fieldRef: RefObject<HTMLElement | null>, run: (action: ToolbarAction["kind"]) => void) {
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  useEffect(() => {
    const field = fieldRef.current;
    if (!field) return;
    const onKey = (event: Event) => {
      const e = event as KeyboardEvent;
      // the toolbar's own buttons and a formula's TeX field keep their keys
      if ((e.target as HTMLElement).closest('[role="toolbar"], .visual-math-edit')) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      const action =
        mod && !e.altKey && !e.shiftKey
          ? ({ b: "bold", u: "underline", m: "math" } as const)[key as "b" | "u" | "m"]
          : e.shiftKey && !mod && e.key === "Enter"
            ? "br"
            : undefined;
      if (!action) return;
      e.preventDefault();
      runRef.current(action);
    };
    field.addEventListener("keydown", onKey);
    return () => field.removeEventListener("keydown", onKey);
  }, [fieldRef]);
}

/** One tab stop: the last used button keeps tabindex 0, arrows move along the bar. */
function useToolbarFocus() {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const buttons = [
      ...(bar.current?.querySelectorAll<HTMLButtonElement>(":scope > button, :scope > .toolbar-colors > button") ?? []),
    ];
    buttons.forEach((b, i) => (b.tabIndex = i === 0 ? 0 : -1));
  }, []);
  const onBarKey = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    const buttons = [
      ...(bar.current?.querySelectorAll<HTMLButtonElement>(":scope > button, :scope > .toolbar-colors > button") ?? []),
    ];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    e.preventDefault();
    const to =
      e.key === "Home"
        ? 0
        : e.key === "End"
          ? buttons.length - 1
          : (at + (e.key === "ArrowRight" ? 1 : -1) + buttons.length) % buttons.length;
    buttons.forEach((b, i) => (b.tabIndex = i === to ? 0 : -1));
    buttons[to]?.focus();
  };
  return { bar, onBarKey };
}

/** One toolbar button; it remembers the field's selection on a mouse press, then runs its action. */
function ToolbarButton({
  action,
  label,
  text,
  keys,
  remember,
  run,
}: {
  action: "bold" | "underline" | "ruby" | "math" | "br";
  label: "bold" | "underline" | "ruby" | "math" | "lineBreak";
  text: string;
  keys?: string;
  remember: () => void;
  run: (action: ToolbarAction["kind"]) => void;
}) {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  return (
    <button
      type="button"
      className={`button button-small toolbar-${action}`}
      aria-label={plain(t(label))}
      title={plain(t(label))}
      aria-keyshortcuts={keys}
      // the field keeps its selection: the button does not take the focus on a mouse press
      onMouseDown={(e) => {
        remember();
        e.preventDefault();
      }}
      onClick={() => run(action)}
      data-testid={`toolbar-${action}`}
    >
      {text}
    </button>
  );
}

/** The colour menu: one item per accent colour. */
function ColorMenu({ onColor }: { onColor: (name: (typeof TOOLBAR_COLORS)[number]) => void }) {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  return (
    <span className="toolbar-colors">
      <PopoverMenu
        label={
          <>
            <span aria-hidden="true" className="toolbar-color-label">
              A
            </span>
            <span className="visually-hidden">{plain(t("color"))}</span>
          </>
        }
        testId="toolbar-color"
      >
        {TOOLBAR_COLORS.map((name) => (
          <button
            key={name}
            type="button"
            className="menu-item"
            data-testid={`color-${name}`}
            onClick={() => onColor(name)}
          >
            <span className="color-swatch" style={{ background: `var(--color-accent-${name})` }} aria-hidden="true" />
            <RichTextClient text={t(`colors.${name}`)} />
          </button>
        ))}
      </PopoverMenu>
    </span>
  );
}
