import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { getPlainText } from "@/platform/i18n/server";
import { RichText } from "./rich-text";

/**
 * Server component: previous and next page of a paged list, with where this page is ("2 / 5ページ"); `hrefOf`
 * gives a page's address with the list's filters kept. Nothing when everything fits one page.
 */
export async function Pager({
  page,
  pages,
  hrefOf,
}: {
  page: number;
  pages: number;
  hrefOf: (page: number) => string;
}) {
  if (pages <= 1) return null;
  const [t, plain] = await Promise.all([getTranslations("Pager"), getPlainText()]);
  return (
    <nav className="row pager" aria-label={plain(t("label"))}>
      {page > 1 ? (
        <Link className="button" href={hrefOf(page - 1)} data-testid="prev-page">
          <RichText text={t("prev")} />
        </Link>
      ) : null}
      <span data-testid="page-info">
        <RichText text={t("page", { page, pages })} />
      </span>
      {page < pages ? (
        <Link className="button" href={hrefOf(page + 1)} data-testid="next-page">
          <RichText text={t("next")} />
        </Link>
      ) : null}
    </nav>
  );
}
