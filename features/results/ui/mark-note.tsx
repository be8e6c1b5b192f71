import { getTranslations } from "next-intl/server";
import type { OwnMark } from "@/features/results/shared/mark-verdicts";
import { RichText } from "@/platform/ui/rich-text";

/** A teacher's mark and comment as the student sees it under their answer (the comment as plain text, never markup). */
export async function MarkNote({ mark }: { mark: OwnMark }) {
  const t = await getTranslations("Marks");
  return (
    <div className="stack mark-note" data-testid="mark-note" data-verdict={mark.verdict ?? ""}>
      {mark.verdict ? (
        <p className={`verdict verdict-${mark.verdict}`} data-testid="teacher-verdict">
          <RichText text={t("teacherMark", { verdict: t(mark.verdict) })} />
        </p>
      ) : null}
      {mark.comment ? (
        <div className="stack">
          <p className="muted">
            <RichText text={t("teacherComment")} />
          </p>
          <p className="mark-comment" data-testid="teacher-comment">
            {mark.comment}
          </p>
        </div>
      ) : null}
      {mark.stale ? (
        <p className="muted">
          <RichText text={t("stale")} />
        </p>
      ) : null}
    </div>
  );
}
