"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { RichTextClient } from "./rich-text-client";

interface Request {
  title: string;
  body: string;
  confirm: string;
  danger?: boolean;
  extra?: ReactNode;
  /** A text the person must type before the confirming button works (e.g. the school's name before a rollover graduates anyone). */
  typed?: { label: string; matches: (text: string) => boolean; onInput: (text: string) => void };
  resolve: (ok: boolean) => void;
}

/**
 * A confirmation in a modal dialog (focus trapped, Escape cancels, cancel is
 * focused first): `await confirm({...})` is true only when the person chose
 * the confirming button (with `typed`: only once what they typed matches).
 * Render `dialog` once in the component.
 */
export function useConfirm() {
  const common = useTranslations("Common");
  const ref = useRef<HTMLDialogElement>(null);
  const [request, setRequest] = useState<Request | null>(null);
  const [text, setText] = useState("");
  const confirm = useCallback(
    (options: Omit<Request, "resolve">) =>
      new Promise<boolean>((resolve) => {
        setText("");
        setRequest({ ...options, resolve });
      }),
    [],
  );
  const typedOk = !request?.typed || request.typed.matches(text);
  useEffect(() => {
    if (request && !ref.current?.open) ref.current?.showModal();
  }, [request]);
  const finish = (ok: boolean) => {
    request?.resolve(ok && typedOk);
    setRequest(null);
    if (ref.current?.open) ref.current.close();
  };
  const dialog = (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="confirm-title"
      data-testid="confirm-dialog"
      onClose={() => finish(false)}
    >
      {request ? (
        <div className="stack">
          <h2 id="confirm-title">
            <RichTextClient text={request.title} />
          </h2>
          <p data-testid="confirm-body">
            <RichTextClient text={request.body} />
          </p>
          {request.extra}
          {request.typed ? (
            <TypedField
              label={request.typed.label}
              value={text}
              onChange={(value) => {
                setText(value);
                request.typed?.onInput(value);
              }}
            />
          ) : null}
          <div className="row">
            <button
              type="button"
              className="button"
              autoFocus
              onClick={() => finish(false)}
              data-testid="confirm-cancel"
            >
              <RichTextClient text={common("cancel")} />
            </button>
            <button
              type="button"
              className={request.danger ? "button button-danger" : "button button-primary"}
              onClick={() => finish(true)}
              disabled={!typedOk}
              data-testid="confirm-ok"
            >
              <RichTextClient text={request.confirm} />
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  );
  return { confirm, dialog };
}

/** The text the person must type before the confirming button works. */
function TypedField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={label} />
      </span>
      <input
        className="input"
        value={value}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        data-testid="confirm-typed"
      />
    </label>
  );
}
