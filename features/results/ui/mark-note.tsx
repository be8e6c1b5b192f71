import { getTranslations } from "next-intl/server";
import type { OwnMark } from "@/features/results/shared/mark-verdicts";
import { RichText } from "@/platform/ui/rich-text";

/**
 * A teacher's mark and comment under an answer (the student's result page, the portfolio): the comment in the
 * rich-text markup scene texts use, in the reader's display language (its ruby over kanji, or kana alone).
 */
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
            <RichText text={mark.comment} />
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
