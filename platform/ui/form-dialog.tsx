"use client";
import { useTranslations } from "next-intl";
import { type FormEvent, type ReactNode, useRef, useState, useTransition } from "react";
import type { ActionResult } from "@/platform/errors";
import { useNotify } from "./notifications";
import { RichTextClient } from "./rich-text-client";

type Failure = Extract<ActionResult<unknown>, { ok: false }>;

interface FormDialogProps<D> {
  label: string;
  title: string;
  testId: string;
  submit: string;
  action: (fields: Record<string, string>) => Promise<ActionResult<D>>;
  success: string;
  failure: (result: Failure) => string;
  onOk?: (data: D) => void;
  keepOpen?: boolean;
  primary?: boolean;
  children: ReactNode;
  after?: ReactNode;
}

/**
 * A button that opens a modal form; submitting runs a server action with the
 * form's fields. The fields keep what was typed when the action refuses (the
 * reason is shown in the dialog); on success it notifies and closes, or stays
 * open to show `after` (e.g. a password shown once). Test ids: `testId` (the
 * button), `-dialog`, `-save`, `-error`.
 */
export function FormDialog<D>({
  label,
  title,
  testId,
  submit,
  action,
  success,
  failure,
  onOk,
  keepOpen,
  primary,
  children,
  after,
}: FormDialogProps<D>) {
  const notify = useNotify();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const fields = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
    setError(null);
    startTransition(async () => {
      const result = await action(fields).catch((): ActionResult<D> => ({ ok: false, code: "INTERNAL" }));
      if (!result.ok) {
        setError(failure(result));
        return;
      }
      onOk?.(result.data);
      notify({ message: success, kind: "success" });
      if (keepOpen) form.reset();
      else dialog.current?.close();
    });
  };
  return (
    <>
      <button
        type="button"
        className={primary ? "button button-primary" : "button"}
        onClick={() => dialog.current?.showModal()}
        data-testid={testId}
      >
        <RichTextClient text={label} />
      </button>
      <dialog
        ref={dialog}
        className="dialog"
        aria-label={title}
        data-testid={`${testId}-dialog`}
        onClose={() => setError(null)}
      >
        <form className="stack" onSubmit={onSubmit}>
          <h2>
            <RichTextClient text={title} />
          </h2>
          {after}
          {children}
          {error ? (
            <p className="alert alert-error" role="alert" data-testid={`${testId}-error`}>
              <span>
                <RichTextClient text={error} />
              </span>
            </p>
          ) : null}
          <SubmitRow testId={testId} pending={pending} submit={submit} onClose={() => dialog.current?.close()} />
        </form>
      </dialog>
    </>
  );
}

/** The submit button (a spinner while the action runs) and the close button. */
function SubmitRow({
  testId,
  pending,
  submit,
  onClose,
}: {
  testId: string;
  pending: boolean;
  submit: string;
  onClose: () => void;
}) {
  const common = useTranslations("Common");
  return (
    <div className="row">
      <button
        type="submit"
        className="button button-primary"
        disabled={pending}
        aria-busy={pending}
        data-testid={`${testId}-save`}
      >
        {pending ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
        <RichTextClient text={submit} />
      </button>
      <button type="button" className="button" onClick={onClose}>
        <RichTextClient text={common("close")} />
      </button>
    </div>
  );
}
