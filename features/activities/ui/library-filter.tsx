import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { LibraryFilter as Filter } from "@/features/activities/shared/library-schema";
import { UNIT_MAX } from "@/features/activities/shared/library-tags";
import { RichText } from "@/platform/ui/rich-text";
import { TagSelects } from "./tag-fields";

/** The library's search and tag filters: a GET form, so the URL holds them (reload, back, share); works without JavaScript. */
export async function LibraryFilter({ action, filter, total }: { action: string; filter: Filter; total: number }) {
  const t = await getTranslations("Library");
  const filtered = Boolean(filter.q || filter.subject || filter.grade || filter.unit);
  return (
    <form method="get" action={action} role="search" className="row wrap activity-filter" data-testid="library-filter">
      <label className="field field-inline">
        <span className="field-label">
          <RichText text={t("search")} />
        </span>
        <input type="search" name="q" defaultValue={filter.q ?? ""} maxLength={200} data-testid="library-search" />
      </label>
      <TagSelects idPrefix="library" initial={filter} empty="all" inline />
      <label className="field field-inline">
        <span className="field-label">
          <RichText text={t("unit")} />
        </span>
        <input
          type="search"
          name="unit"
          defaultValue={filter.unit ?? ""}
          maxLength={UNIT_MAX}
          data-testid="library-unit"
        />
      </label>
      <button type="submit" className="button" data-testid="library-filter-apply">
        <RichText text={t("apply")} />
      </button>
      {filtered ? (
        <>
          <Link href={action} data-testid="library-filter-clear">
            <RichText text={t("clear")} />
          </Link>
          <span className="muted" role="status" data-testid="library-found">
            <RichText text={t("found", { count: total })} />
          </span>
        </>
      ) : null}
    </form>
  );
}
