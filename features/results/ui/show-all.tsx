import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { RichText } from "@/platform/ui/rich-text";

/**
 * How many items of a long list (free texts, "not answered yet", respondents)
 * the stats page shows at first: a school of 1,000 would make the page
 * megabytes on a school network. The counts above each list stay exact and the
 * CSV exports hold everything.
 */
export const LIST_FIRST = 50;

/** The items shown: all of them when this list is the one asked for whole, else its first part. */
export function firstPart<T>(items: T[], whole: boolean): T[] {
  return whole ? items : items.slice(0, LIST_FIRST);
}

/** "50 of 230 shown — show all 230": a link to the same page with this list whole (the same loader and checks). */
export async function ShowAll({ total, whole, href }: { total: number; whole: boolean; href: string }) {
  if (whole || total <= LIST_FIRST) return null;
  const t = await getTranslations("Results");
  return (
    <p className="muted no-print" data-testid="show-all">
      <RichText text={t("shownOf", { shown: LIST_FIRST, total })} />{" "}
      <Link href={href} scroll={false} className="button button-small">
        <RichText text={t("showAll", { count: total })} />
      </Link>
    </p>
  );
}
