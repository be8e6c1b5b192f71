"use client";
import { useTranslations } from "next-intl";
import { useActionState, useEffect, useRef } from "react";
import { addStudentFromForm } from "@/lib/students/actions";
import { useNotify } from "@/components/ui/notifications";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { CopyButton } from "./copy-button";

/** "Add student": a dialog form; the initial password is shown once. */
export function AddStudent() {
  const t = useTranslations("Students");
  const notify = useNotify();
  const dialog = useRef<HTMLDialogElement>(null);
  const [result, action, pending] = useActionState(addStudentFromForm, null);
  useEffect(() => {
    if (result?.ok) notify({ message: t("added"), kind: "success" });
  }, [result, notify, t]);
  const error = result && !result.ok ? (result.fieldErrors?.email?.includes("emailInUse") ? t("emailInUse") : t("invalid")) : null;
  return (
    <>
      <button type="button" className="button button-primary" onClick={() => dialog.current?.showModal()} data-testid="add-student">
        <RichTextClient text={t("add")} />
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby="add-student-title" data-testid="add-student-dialog">
        <h2 id="add-student-title">
          <RichTextClient text={t("addTitle")} />
        </h2>
        {result?.ok ? (
          <div className="stack">
            <p className="alert alert-success" role="status" data-testid="initial-password" data-password={result.data.password}>
              <span>
                <RichTextClient text={t("passwordOnce", { password: result.data.password })} />
              </span>
            </p>
            <CopyButton text={result.data.password} />
          </div>
        ) : null}
        <form action={action} className="stack">
          <div className="form-grid">
            {(["name", "nameKana", "nickname", "email"] as const).map((field) => (
              <label key={field} className="field">
                <span className="field-label">
                  <RichTextClient text={t(field)} />
                </span>
                <input name={field} type={field === "email" ? "email" : "text"} required={field === "name"} maxLength={field === "email" ? 254 : 100} />
              </label>
            ))}
            <label className="field">
              <span className="field-label">
                <RichTextClient text={t("grade")} />
              </span>
              <input name="grade" type="number" min={1} max={12} required defaultValue={1} />
            </label>
            <label className="field">
              <span className="field-label">
                <RichTextClient text={t("className")} />
              </span>
              <input name="className" required maxLength={10} defaultValue="1" />
            </label>
            <label className="field">
              <span className="field-label">
                <RichTextClient text={t("number")} />
              </span>
              <input name="number" type="number" min={1} max={99} required />
            </label>
            <label className="field">
              <span className="field-label">
                <RichTextClient text={t("group")} />
              </span>
              <input name="group" maxLength={3} pattern="[A-Z]{0,3}" />
            </label>
          </div>
          {error ? (
            <p className="alert alert-error" role="alert" data-testid="add-student-error">
              <span>
                <RichTextClient text={error} />
              </span>
            </p>
          ) : null}
          <div className="row">
            <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending} data-testid="add-student-save">
              <RichTextClient text={pending ? t("saving") : t("save")} />
            </button>
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              <RichTextClient text={t("close")} />
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
