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

type Field = HTMLInputElement | HTMLTextAreaElement;
type Dialog = { kind: "ruby"; base: string } | { kind: "math"; initial: string } | null;

/**
 * The formatting toolbar over a text field: bold, underline, colour, ruby, math, line break,
 * written into the field's value as the stored markup (platform/richtext/edit.ts), never typed by
 * the teacher. One tab stop (arrow keys move between its buttons); Ctrl+B, Ctrl+U, Ctrl+M
 * and Shift+Enter work in the field itself.
 */
export function MarkupToolbar({
  fieldRef,
  value,
  onChange,
}: {
  fieldRef: RefObject<Field | null>;
  value: string;
  onChange: (next: string) => void;
}) {
  const t = useTranslations("Toolbar");
  const plain = usePlainText();
  const notify = useNotify();
  const [dialog, setDialog] = useState<Dialog>(null);
  const selection = useRef({ start: 0, end: 0 });

  const remember = () => {
    const field = fieldRef.current;
    if (field)
      selection.current = { start: field.selectionStart ?? value.length, end: field.selectionEnd ?? value.length };
    return selection.current;
  };
  /** Applies `action` at the remembered selection; false (and a message) when it cannot be done there. */
  const apply = (action: ToolbarAction): boolean => {
    const { start, end } = selection.current;
    const next = applyToolbarAction(value, start, end, action);
    if (!next) {
      const wraps = action.kind !== "br" && action.kind !== "math";
      if (action.kind !== "ruby")
        notify({ message: t(wraps && start === end ? "selectFirst" : "cannotApply"), kind: "error" });
      return false;
    }
    flushSync(() => {
      onChange(next.text);
      setDialog(null); // the modal dialog leaves first: the field behind it could not take the focus
    });
    const field = fieldRef.current;
    field?.focus();
    field?.setSelectionRange(next.start, next.end);
    return true;
  };
  const run = (action: ToolbarAction["kind"]) => {
    const { start, end } = remember();
    if (action === "bold" || action === "underline" || action === "br") apply({ kind: action });
    else if (action === "math") setDialog({ kind: "math", initial: value.slice(start, end) });
    else if (action === "ruby") {
      if (start === end) notify({ message: t("selectFirst"), kind: "error" });
      else setDialog({ kind: "ruby", base: value.slice(start, end) });
    }
  };
  useFieldShortcuts(fieldRef, run);
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

/** Ctrl+B, Ctrl+U, Ctrl+M and Shift+Enter in the field itself run the toolbar's action (the latest `run`). */
function useFieldShortcuts(fieldRef: RefObject<Field | null>, run: (action: ToolbarAction["kind"]) => void) {
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  useEffect(() => {
    const field = fieldRef.current;
    if (!field) return;
    const onKey = (event: Event) => {
      const e = event as KeyboardEvent;
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
