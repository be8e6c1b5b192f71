"use client";
import { useTranslations } from "next-intl";
import { type RefObject, useRef, useState, useTransition } from "react";
import type { ActionResult } from "@/platform/errors";
import { importStudentsFromForm } from "@/features/people/server/actions";
import { csvTemplate, MAX_CSV_BYTES, MAX_CSV_ROWS } from "@/features/people/shared/csv";
import type { ImportPreview } from "@/features/people/server/commands";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";

type Result = ActionResult<ImportPreview & { imported: number }>;
const FILE_ERRORS = ["tooLarge", "tooManyRows", "noHeader", "empty", "emailInUse", "seatTaken"] as const;
type FileError = (typeof FILE_ERRORS)[number];

/**
 * "Import from CSV": choose a file (UTF-8 with or without BOM, or Shift_JIS),
 * see every row's result before anything is written, then import all rows in
 * one go — or none when any row has an error.
 */
export function ImportStudents() {
  const t = useTranslations("Import");
  const dialog = useRef<HTMLDialogElement>(null);
  const { input, file, preview, problem, pending, reset, send, choose } = useStudentImport(dialog);
  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(csvTemplate())}`;

  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => dialog.current?.showModal()}
        data-testid="import-students"
      >
        <RichTextClient text={t("open")} />
      </button>
      <dialog
        ref={dialog}
        className="dialog dialog-wide"
        aria-labelledby="import-title"
        data-testid="import-dialog"
        onClose={reset}
      >
        <div className="stack">
          <h2 id="import-title">
            <RichTextClient text={t("title")} />
          </h2>
          <p>
            <RichTextClient text={t("help", { rows: MAX_CSV_ROWS })} />
          </p>
          <p>
            <a href={template} download="manabiya-students-template.csv" data-testid="csv-template">
              <RichTextClient text={t("template")} />
            </a>
          </p>
          <label className="field">
            <span className="field-label">
              <RichTextClient text={t("file")} />
            </span>
            <input
              ref={input}
              type="file"
              accept=".csv,text/csv"
              onChange={(e) => choose(e.target.files?.[0])}
              data-testid="csv-file"
            />
          </label>
          <ImportStatus pending={pending} problem={problem} />
          {preview ? <PreviewTable preview={preview} /> : null}
          <div className="row">
            <button
              type="button"
              className="button button-primary"
              disabled={pending || !file || !preview || preview.invalid > 0 || preview.valid === 0}
              onClick={() => file && send(file, true)}
              data-testid="import-commit"
            >
              <RichTextClient
                text={preview && preview.invalid === 0 ? t("commit", { count: preview.valid }) : t("commitDisabled")}
              />
            </button>
            <button type="button" className="button" onClick={() => dialog.current?.close()}>
              <RichTextClient text={t("close")} />
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}

/** The chosen file, its checked preview or problem, and the two sends: check only, then import all. */
function useStudentImport(dialog: RefObject<HTMLDialogElement | null>) {
  const t = useTranslations("Import");
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [problem, setProblem] = useState<FileError | "failed" | null>(null);
  const [pending, startTransition] = useTransition();

  const reset = () => {
    setFile(null);
    setPreview(null);
    setProblem(null);
    if (input.current) input.current.value = "";
  };
  const send = (chosen: File, commit: boolean) =>
    startTransition(async () => {
      const form = new FormData();
      form.set("file", chosen);
      form.set("commit", commit ? "1" : "0");
      const result: Result = await importStudentsFromForm(form).catch(() => ({ ok: false, code: "INTERNAL" }) as const);
      if (!result.ok) {
        const code = result.fieldErrors?.file?.[0] as FileError | undefined;
        setProblem(code && FILE_ERRORS.includes(code) ? code : "failed");
        setPreview(null);
        return;
      }
      setPreview(result.data);
      if (commit && result.data.imported > 0) {
        notify({ message: t("imported", { count: result.data.imported }), kind: "success" });
        dialog.current?.close();
      }
    });
  const choose = (chosen: File | undefined) => {
    setPreview(null);
    setProblem(null);
    setFile(chosen ?? null);
    if (!chosen) return;
    if (chosen.size > MAX_CSV_BYTES) {
      setProblem("tooLarge");
      return;
    }
    send(chosen, false);
  };
  return { input, file, preview, problem, pending, reset, send, choose };
}

/** A note while a file is being checked; the file's problem, if any. */
function ImportStatus({ pending, problem }: { pending: boolean; problem: FileError | "failed" | null }) {
  const t = useTranslations("Import");
  return (
    <>
      {pending ? (
        <p role="status" className="row">
          <span className="spinner spinner-small" aria-hidden="true" />
          <RichTextClient text={t("checking")} />
        </p>
      ) : null}
      {problem ? (
        <p className="alert alert-error" role="alert" data-testid="import-error" data-code={problem}>
          <span>
            <RichTextClient text={t(`file_${problem}`, { rows: MAX_CSV_ROWS, kb: MAX_CSV_BYTES / 1024 })} />
          </span>
        </p>
      ) : null}
    </>
  );
}

/** The summary of the check, and every row with its result. */
function PreviewTable({ preview }: { preview: ImportPreview }) {
  const t = useTranslations("Import");
  return (
    <>
      <p
        className={preview.invalid > 0 ? "alert alert-error" : "alert alert-success"}
        role="status"
        data-testid="import-summary"
        data-valid={preview.valid}
        data-invalid={preview.invalid}
      >
        <span>
          <RichTextClient
            text={
              preview.invalid > 0
                ? t("hasErrors", { invalid: preview.invalid, total: preview.rows.length })
                : t("allValid", { count: preview.valid })
            }
          />
        </span>
      </p>
      <div className="table-wrap import-preview">
        <table className="table" data-testid="import-preview">
          <thead>
            <tr>
              <th scope="col">
                <RichTextClient text={t("line")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("name")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("seat")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("email")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("result")} />
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <PreviewRow key={row.line} row={row} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** One row of the file: line, name, seat, email and its errors (or OK). */
function PreviewRow({ row }: { row: ImportPreview["rows"][number] }) {
  const t = useTranslations("Import");
  return (
    <tr
      data-line={row.line}
      data-errors={row.errors.join(" ")}
      className={row.errors.length > 0 ? "row-error" : undefined}
    >
      <td className="num">{row.line}</td>
      <td>{row.shown.name}</td>
      <td>
        {row.shown.grade}-{row.shown.className}-{row.shown.number}
      </td>
      <td>{row.shown.email}</td>
      <td>
        {row.errors.length === 0 ? (
          <RichTextClient text={t("rowOk")} />
        ) : (
          <ul className="error-list">
            {row.errors.map((e) => (
              <li key={e}>
                <RichTextClient text={t(`row_${e}`)} />
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
