"use client";
import { useTranslations } from "next-intl";
import { type KeyboardEvent, useState } from "react";
import type { DisplayLanguage } from "@/platform/i18n/languages";
import { formatDateTime } from "@/platform/i18n/dates";
import { markResponseAction } from "@/features/results/server/mark-actions";
import { COMMENT_MAX, MARK_VERDICTS, type MarkVerdict, type StaffMark } from "@/features/results/shared/mark-verdicts";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";

const KEYS: Record<string, MarkVerdict | null> = { "0": null, "1": "correct", "2": "partly", "3": "incorrect" };

interface MarkFormProps {
  activityId: string;
  schoolId?: string;
  responseId: string;
  markable: boolean;
  initial: StaffMark | null;
  lang: DisplayLanguage;
}

/**
 * A teacher marks one answer (free text and drawing: correct / partly / not) and comments on
 * it (any answer), live or afterwards; keys 0–3 choose the mark, Ctrl+Enter saves. Shows who
 * marked it when, and when the answer changed after (the mark is kept; last save wins).
 */
export function MarkForm({ activityId, schoolId, responseId, markable, initial, lang }: MarkFormProps) {
  const t = useTranslations("Marks");
  const [verdict, setVerdict] = useState<MarkVerdict | null>(initial?.verdict ?? null);
  const [comment, setComment] = useState(initial?.comment ?? "");
  const { mark, pending, save } = useMarkSaver({
    activityId,
    schoolId,
    responseId,
    markable,
    initial,
    lang,
    verdict,
    comment,
  });
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (!pending) save();
    } else if (
      markable &&
      e.key in KEYS &&
      !(e.target instanceof HTMLTextAreaElement) &&
      !e.ctrlKey &&
      !e.altKey &&
      !e.metaKey
    ) {
      e.preventDefault();
      setVerdict(KEYS[e.key]!);
    }
  };
  const name = `mark-${responseId}`;
  return (
    <section
      className="stack mark-form no-print"
      data-testid="mark-form"
      data-response-id={responseId}
      data-verdict={mark?.verdict ?? ""}
      onKeyDown={onKeyDown}
      aria-busy={pending}
    >
      <p className="mark-heading">
        <strong>
          <RichTextClient text={t("heading")} />
        </strong>
      </p>
      {markable ? <VerdictField name={name} verdict={verdict} onChange={setVerdict} /> : null}
      <CommentField comment={comment} onChange={setComment} />
      <p className="muted">
        <RichTextClient text={t("remaining", { count: COMMENT_MAX - comment.length })} />
        {" · "}
        <RichTextClient text={t("keys")} />
      </p>
      <p className="row">
        <button type="button" className="button button-small" onClick={save} disabled={pending} data-testid="mark-save">
          <RichTextClient text={pending ? t("saving") : t("save")} />
        </button>
        <MarkStatus mark={mark} lang={lang} />
      </p>
    </section>
  );
}

/** The mark shown (as last saved) and its save: last save wins, and says whose mark it replaced. */
function useMarkSaver({
  activityId,
  schoolId,
  responseId,
  markable,
  initial,
  lang,
  verdict,
  comment,
}: MarkFormProps & { verdict: MarkVerdict | null; comment: string }) {
  const t = useTranslations("Marks");
  const [mark, setMark] = useState(initial);
  const { pending, run } = useActionRunner();
  const save = () =>
    run(
      () =>
        markResponseAction({
          ...(schoolId ? { schoolId } : {}),
          activityId,
          responseId,
          verdict: markable ? verdict : null,
          comment,
          seen: mark?.markedAt ?? null,
        }),
      {
        // last save wins; a save over another teacher's mark this form had not shown says whose
        success: (data) =>
          data?.replaced
            ? t("savedOver", { name: data.replaced.by ?? "—", time: formatDateTime(new Date(data.replaced.at), lang) })
            : t(data ? "saved" : "cleared"),
        failure: (code) =>
          code === "NOT_FOUND"
            ? t("notFound")
            : code === "VALIDATION"
              ? t("invalid", { max: COMMENT_MAX })
              : t("failed"),
        onOk: (data) => setMark(data),
      },
    );
  return { mark, pending, save };
}

/** The marks to choose from (none, correct, partly, incorrect). */
function VerdictField({
  name,
  verdict,
  onChange,
}: {
  name: string;
  verdict: MarkVerdict | null;
  onChange: (verdict: MarkVerdict | null) => void;
}) {
  const t = useTranslations("Marks");
  return (
    <fieldset className="row mark-verdicts">
      <legend>
        <RichTextClient text={t("verdict")} />
      </legend>
      {[null, ...MARK_VERDICTS].map((v) => (
        <label key={v ?? "none"} className="row">
          <input
            type="radio"
            name={name}
            value={v ?? ""}
            checked={verdict === v}
            onChange={() => onChange(v)}
            data-testid={`mark-${v ?? "none"}`}
          />
          <RichTextClient text={t(v ?? "none")} />
        </label>
      ))}
    </fieldset>
  );
}

/** The comment, up to COMMENT_MAX characters. */
function CommentField({ comment, onChange }: { comment: string; onChange: (comment: string) => void }) {
  const t = useTranslations("Marks");
  return (
    <label className="stack">
      <span>
        <RichTextClient text={t("comment", { max: COMMENT_MAX })} />
      </span>
      <textarea
        value={comment}
        maxLength={COMMENT_MAX}
        rows={2}
        onChange={(e) => onChange(e.target.value)}
        data-testid="mark-comment"
      />
    </label>
  );
}

/** Who marked the answer and when (or not marked), and whether the answer changed since. */
function MarkStatus({ mark, lang }: { mark: StaffMark | null; lang: DisplayLanguage }) {
  const t = useTranslations("Marks");
  return (
    <span className="muted" role="status" data-testid="mark-status" data-stale={mark?.stale ? "true" : "false"}>
      <RichTextClient
        text={
          mark
            ? t("markedBy", { name: mark.markedBy ?? "—", time: formatDateTime(new Date(mark.markedAt), lang) })
            : t("notMarked")
        }
      />
      {mark?.stale ? (
        <>
          {" · "}
          <RichTextClient text={t("stale")} />
        </>
      ) : null}
    </span>
  );
}
