"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import type { RolloverResult } from "@/features/rostering/server/rollover-commands";
import { RosterProblems, RosterSchools } from "@/features/rostering/ui/roster-plan";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { rolloverWithSet } from "./rollover-send";

/** The roster page's limit (features/rostering/server/oneroster-package.ts MAX_ROSTER_UPLOAD_BYTES). */
const MAX_BYTES = 64 * 1024 * 1024;

interface Props {
  schoolId: string;
  year: number;
  topGrade: number;
  files: File[];
  onFiles: (files: File[]) => void;
  /** The last preview with the chosen files (null: not checked yet, or the files or the top grade changed). */
  preview: RolloverResult | null;
  onPreview: (preview: RolloverResult | null) => void;
  disabled: boolean;
}

/**
 * Next year's OneRoster set for the rollover (optional): choose a zip or its CSV files as on the
 * roster page, check it (the rollover and the set done and undone on the server), and see each
 * student's new 年・組・番号, the newcomers, who is disabled, or the problems with file, line and column.
 */
export function RolloverSet({ schoolId, year, topGrade, files, onFiles, preview, onPreview, disabled }: Props) {
  const t = useTranslations("Rollover");
  const tr = useTranslations("Roster");
  const id = useId();
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tooLarge = files.reduce((n, f) => n + f.size, 0) > MAX_BYTES;

  const check = async () => {
    setError(null);
    onPreview(null);
    setChecking(true);
    const result = await rolloverWithSet(schoolId, year, topGrade, files, false);
    setChecking(false);
    if (result.ok) return onPreview(result.data);
    const status = result.status ?? 0;
    setError(
      status === 409
        ? t("conflict")
        : tr(status === 413 ? "tooLarge" : status === 429 ? "busy" : status === 400 ? "unreadable" : "failed"),
    );
  };

  return (
    <section className="stack" data-testid="rollover-set">
      <h2>
        <RichTextClient text={t("setTitle")} />
      </h2>
      <p className="muted">
        <RichTextClient text={t("setLead")} />
      </p>
      <div className="field">
        <label htmlFor={id} className="field-label">
          <RichTextClient text={tr("fileLabel")} />
        </label>
        <input
          id={id}
          type="file"
          multiple
          accept=".zip,.csv,application/zip,text/csv"
          disabled={disabled || checking}
          data-testid="rollover-set-file"
          onChange={(e) => {
            setError(null);
            onPreview(null);
            onFiles(Array.from(e.target.files ?? []));
          }}
        />
      </div>
      {files.length > 0 ? (
        <div>
          <button
            type="button"
            className="button"
            disabled={disabled || checking || tooLarge}
            aria-busy={checking}
            onClick={check}
            data-testid="rollover-set-check"
          >
            <RichTextClient text={checking ? t("setChecking") : t("setCheck")} />
          </button>
        </div>
      ) : null}
      {tooLarge || error ? (
        <p className="alert alert-error" role="alert" data-testid="rollover-set-error">
          <span>
            <RichTextClient text={tooLarge ? tr("tooLarge") : (error ?? "")} />
          </span>
        </p>
      ) : null}
      {preview?.roster ? <SetPlan roster={preview.roster} reissued={preview.reissuedIds.length} /> : null}
    </section>
  );
}

/** The checked set: its problems, or the number of reissued ids and its warnings; then its schools. */
function SetPlan({ roster, reissued }: { roster: NonNullable<RolloverResult["roster"]>; reissued: number }) {
  const t = useTranslations("Rollover");
  const problems = roster.problems ?? [];
  return (
    <div className="stack" data-testid="rollover-set-plan" data-problems={problems.length}>
      {problems.length > 0 ? (
        <RosterProblems problems={problems} />
      ) : (
        <p className="alert alert-info" role="status" data-testid="rollover-set-checked">
          <span>
            <RichTextClient text={t("setChecked", { reissued })} />
          </span>
        </p>
      )}
      {problems.length === 0 && roster.warnings?.length ? <RosterProblems problems={roster.warnings} warning /> : null}
      <RosterSchools schools={roster.schools} />
    </div>
  );
}
