"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { type RefObject, useRef, useState } from "react";
import {
  archiveAction,
  deleteAction,
  duplicateActivityAction,
  restoreAction,
} from "@/features/activities/server/actions";
import type { ActivityMode } from "@/features/activities/shared/schema";
import type { ActionResult } from "@/platform/errors";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { DownloadLink } from "@/platform/ui/download-link";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { type ActivityOp, activityErrorKey } from "./error-message";
import { MODE_KEY, ModeSelect } from "./mode-select";

export interface ActivityTableRow {
  id: string;
  title: string;
  actorType: "student" | "teacher";
  mode: ActivityMode;
  sceneCount: number;
  answers: number;
  respondents: number;
  /** The academic year (年度) the activity belongs to. */
  academicYear: number;
  /** Rich-text markup of the last answer or session start, formatted for the display language; null: never used. */
  lastUsed: string | null;
}

type RunOp = (
  row: ActivityTableRow,
  op: ActivityOp,
  action: () => Promise<ActionResult<unknown>>,
  done: string,
) => void;
type RowRef = (row: ActivityTableRow) => { activityId: string; schoolId?: string };

/** The activity list with its counts and per-row actions (mode, archive, restore, delete with confirmation). */
export function ActivityTable({
  rows,
  archived,
  filtered,
  schoolId,
  links,
}: {
  rows: ActivityTableRow[];
  archived: boolean;
  /** a search or filter is on: an empty list says nothing matched */
  filtered?: boolean;
  /** Managers act on a named school; teachers on their own. */
  schoolId?: string;
  links: { edit?: string; preview: string; guide: string; stats: string };
}) {
  const t = useTranslations("Activities");
  const tl = useTranslations("ActivityList");
  const { pending, run: runAction } = useActionRunner();
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<ActivityTableRow | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const run: RunOp = (row, op, action, done) => {
    setBusyId(row.id);
    runAction(action, {
      success: done,
      failure: (code) => t(activityErrorKey(op, code)),
      onDone: () => setBusyId(null),
    });
  };
  const ref: RowRef = (row) => ({ activityId: row.id, ...(schoolId ? { schoolId } : {}) });

  if (rows.length === 0) {
    return (
      <p className="empty" data-testid="activities-empty">
        <RichTextClient text={filtered ? tl("noMatch") : archived ? t("emptyArchived") : t("emptyActive")} />
      </p>
    );
  }

  return (
    <>
      <div className="table-wrap">
        <table className="table" data-testid="activity-table">
          <thead>
            <tr>
              {(
                ["colTitle", "colActor", "colMode", "colScenes", "colAnswers", "colLastUsed", "colActions"] as const
              ).map((k) => (
                <th key={k} scope="col">
                  <RichTextClient text={k === "colAnswers" || k === "colLastUsed" ? tl(k) : t(k)} />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <ActivityRow
                key={row.id}
                row={row}
                archived={archived}
                schoolId={schoolId}
                links={links}
                busy={busyId === row.id}
                pending={pending}
                run={run}
                rowRef={ref}
                onDelete={() => {
                  setConfirming(row);
                  dialog.current?.showModal();
                }}
              />
            ))}
          </tbody>
        </table>
      </div>
      <DeleteDialog dialog={dialog} confirming={confirming} setConfirming={setConfirming} run={run} rowRef={ref} />
    </>
  );
}

/** One activity's row: title and year, actor, mode, counts, last use and the actions cell. */
function ActivityRow({
  row,
  archived,
  schoolId,
  links,
  busy,
  pending,
  run,
  rowRef,
  onDelete,
}: {
  row: ActivityTableRow;
  archived: boolean;
  schoolId?: string;
  links: { edit?: string; preview: string; guide: string; stats: string };
  busy: boolean;
  pending: boolean;
  run: RunOp;
  rowRef: RowRef;
  onDelete: () => void;
}) {
  const t = useTranslations("Activities");
  const tl = useTranslations("ActivityList");
  const common = useTranslations("Common");
  return (
    <tr data-activity-id={row.id} aria-busy={busy}>
      <th scope="row" className="activity-title">
        <RichTextClient text={row.title} />{" "}
        <span className="muted nowrap" data-testid="activity-year">
          <RichTextClient text={common("academicYear", { year: row.academicYear })} />
        </span>
      </th>
      <td>
        <RichTextClient text={t(row.actorType === "student" ? "actorStudent" : "actorTeacher")} />
      </td>
      <td>
        {archived ? (
          <RichTextClient text={t(MODE_KEY[row.mode])} />
        ) : (
          <ModeSelect activityId={row.id} mode={row.mode} title={row.title} schoolId={schoolId} />
        )}
      </td>
      <td className="num" data-testid="activity-scenes">
        {row.sceneCount}
      </td>
      <td className="num" data-testid="activity-answers">
        <RichTextClient text={tl("answers", { answers: row.answers, respondents: row.respondents })} />
      </td>
      <td data-testid="activity-last-used">
        <RichTextClient text={row.lastUsed ?? tl("neverUsed")} />
      </td>
      <td>
        <RowActions
          row={row}
          archived={archived}
          schoolId={schoolId}
          links={links}
          pending={pending}
          run={run}
          rowRef={rowRef}
          onDelete={onDelete}
        />
      </td>
    </tr>
  );
}

/** A row's action links and buttons: edit, preview, export, then guide/stats/duplicate/archive or restore/delete. */
function RowActions({
  row,
  archived,
  schoolId,
  links,
  pending,
  run,
  rowRef: ref,
  onDelete,
}: {
  row: ActivityTableRow;
  archived: boolean;
  schoolId?: string;
  links: { edit?: string; preview: string; guide: string; stats: string };
  pending: boolean;
  run: RunOp;
  rowRef: RowRef;
  onDelete: () => void;
}) {
  const t = useTranslations("Activities");
  const tt = useTranslations("ActivityTransfer");
  const plain = usePlainText();
  return (
    <div className="row actions">
      {!archived && links.edit ? (
        <Link className="button button-small" href={`${links.edit}/${row.id}`}>
          <RichTextClient text={t("edit")} />
        </Link>
      ) : null}
      <Link className="button button-small" href={`${links.preview}/${row.id}`}>
        <RichTextClient text={t("preview")} />
      </Link>
      <DownloadLink
        className="button button-small"
        href={`/api/v1/exports/${row.id}/activity${schoolId ? `?school=${schoolId}` : ""}`}
        testId="export-activity"
        failure={(status) => plain(tt(status === 413 ? "exportTooLarge" : "exportFailed"))}
      >
        <RichTextClient text={tt("export")} />
      </DownloadLink>
      {!archived ? (
        <ActiveActions row={row} links={links} pending={pending} run={run} rowRef={ref} />
      ) : (
        <ArchivedActions row={row} pending={pending} run={run} rowRef={ref} onDelete={onDelete} />
      )}
    </div>
  );
}

/** An active activity's guide and stats links, duplicate and archive buttons. */
function ActiveActions({
  row,
  links,
  pending,
  run,
  rowRef: ref,
}: {
  row: ActivityTableRow;
  links: { guide: string; stats: string };
  pending: boolean;
  run: RunOp;
  rowRef: RowRef;
}) {
  const t = useTranslations("Activities");
  const plain = usePlainText();
  return (
    <>
      <Link className="button button-small" href={`${links.guide}/${row.id}`}>
        <RichTextClient text={t("guide")} />
      </Link>
      <Link className="button button-small" href={`${links.stats}/${row.id}`}>
        <RichTextClient text={t("stats")} />
      </Link>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        aria-label={plain(t("duplicateLabel", { title: row.title }))}
        data-testid="duplicate-activity"
        onClick={() => run(row, "copy", () => duplicateActivityAction(ref(row)), t("duplicatedDone"))}
      >
        <RichTextClient text={t("duplicate")} />
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="archive"
        onClick={() => run(row, "archive", () => archiveAction(ref(row)), t("archivedDone"))}
      >
        <RichTextClient text={t("archive")} />
      </button>
    </>
  );
}

/** An archived activity's restore and delete buttons. */
function ArchivedActions({
  row,
  pending,
  run,
  rowRef: ref,
  onDelete,
}: {
  row: ActivityTableRow;
  pending: boolean;
  run: RunOp;
  rowRef: RowRef;
  onDelete: () => void;
}) {
  const t = useTranslations("Activities");
  return (
    <>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="restore"
        onClick={() => run(row, "restore", () => restoreAction(ref(row)), t("restoredDone"))}
      >
        <RichTextClient text={t("restore")} />
      </button>
      <button
        type="button"
        className="button button-small button-danger"
        disabled={pending}
        data-testid="delete"
        onClick={onDelete}
      >
        <RichTextClient text={t("delete")} />
      </button>
    </>
  );
}

/** The delete confirmation dialog; confirming runs the delete on the row it was opened for. */
function DeleteDialog({
  dialog,
  confirming,
  setConfirming,
  run,
  rowRef: ref,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  confirming: ActivityTableRow | null;
  setConfirming: (row: ActivityTableRow | null) => void;
  run: RunOp;
  rowRef: RowRef;
}) {
  const t = useTranslations("Activities");
  const common = useTranslations("Common");
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="delete-title"
      data-testid="delete-dialog"
      onClose={() => setConfirming(null)}
    >
      {confirming ? (
        <form
          method="dialog"
          className="stack"
          onSubmit={(e) => {
            if ((e.nativeEvent as SubmitEvent).submitter?.getAttribute("value") !== "confirm") return;
            const row = confirming;
            run(row, "delete", () => deleteAction(ref(row)), t("deletedDone"));
          }}
        >
          <h2 id="delete-title">
            <RichTextClient text={t("deleteTitle")} />
          </h2>
          <p data-testid="delete-body">
            <RichTextClient text={t("deleteBody", { title: confirming.title, count: confirming.respondents })} />
          </p>
          <div className="row">
            <button type="submit" value="cancel" className="button" autoFocus>
              <RichTextClient text={common("cancel")} />
            </button>
            <button type="submit" value="confirm" className="button button-danger" data-testid="delete-confirm">
              <RichTextClient text={t("deleteConfirm")} />
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
