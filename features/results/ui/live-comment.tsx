"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import type { AnswerToolProps } from "@/features/play/ui/console-parts";
import { markResponseAction, readMarkAction } from "@/features/results/server/mark-actions";
import { COMMENT_MAX, type StaffMark } from "@/features/results/shared/mark-verdicts";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";

/**
 * A comment on one answer during the lesson, the same comment the mark form edits afterwards
 * (features/results/ui/mark-form.tsx): it starts from the stored one and keeps the mark's verdict.
 */
export function LiveComment({ activityId, schoolId, responseId }: AnswerToolProps) {
  const t = useTranslations("Marks");
  const plain = usePlainText();
  // undefined while the stored mark is read
  const [mark, setMark] = useState<StaffMark | null | undefined>(undefined);
  const [comment, setComment] = useState("");
  const { pending, run } = useActionRunner();
  const school = schoolId ? { schoolId } : {};
  useEffect(() => {
    let current = true;
    readMarkAction({ ...(schoolId ? { schoolId } : {}), activityId, responseId })
      .then((result) => {
        if (!current) return;
        const stored = result.ok ? result.data : null;
        setMark(stored);
        setComment(stored?.comment ?? "");
      })
      .catch(() => current && setMark(null));
    return () => {
      current = false;
    };
  }, [activityId, schoolId, responseId]);
  const save = () =>
    run(
      () =>
        markResponseAction({
          ...school,
          activityId,
          responseId,
          verdict: mark?.verdict ?? null,
          comment,
          seen: mark?.markedAt ?? null,
        }),
      {
        success: (data) => plain(t(data?.comment ? "commentSaved" : "commentCleared")),
        failure: (code) => plain(code === "VALIDATION" ? t("invalid", { max: COMMENT_MAX }) : t("failed")),
        onOk: (data) => setMark(data),
      },
    );
  const loading = mark === undefined;
  return (
    <form
      className="row wrap live-comment"
      data-testid="live-comment"
      data-loaded={!loading}
      onSubmit={(e) => {
        e.preventDefault();
        if (!pending) save();
      }}
    >
      <label className="field live-comment-field">
        <span className="visually-hidden">{plain(t("liveComment"))}</span>
        <textarea
          rows={1}
          maxLength={COMMENT_MAX}
          value={comment}
          placeholder={plain(t("liveComment"))}
          disabled={loading}
          onChange={(e) => setComment(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              if (!pending) save();
            }
          }}
          data-testid="live-comment-text"
        />
      </label>
      <button
        type="submit"
        className="button button-small"
        disabled={pending || loading}
        data-testid="live-comment-save"
      >
        <RichTextClient text={t("commentSave")} />
      </button>
    </form>
  );
}
