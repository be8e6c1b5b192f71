import { getTranslations } from "next-intl/server";
import { RichText } from "@/platform/ui/rich-text";
import { MARK_VERDICTS, type MarkVerdict } from "@/features/results/shared/mark-verdicts";

/** A teacher's mark as a small badge beside an answer in the stats page's lists and galleries (nothing when unmarked). */
export async function MarkBadge({ mark }: { mark?: string | null }) {
  if (!mark || !(MARK_VERDICTS as readonly string[]).includes(mark)) return null;
  const t = await getTranslations("Marks");
  return (
    <span className={`verdict verdict-${mark}`} data-testid="mark-badge" data-verdict={mark}>
      <RichText text={t(mark as MarkVerdict)} />
    </span>
  );
}
