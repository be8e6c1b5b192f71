import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { ACTIVITY_MODES, MODE_KEY } from "@/features/activities/shared/modes";
import type { ActivityListFilter } from "@/features/activities/shared/schema";
import { getPlainText } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";

/** The activity list's search and filter: a GET form, so the URL holds it (reload, back, share). */
export async function ActivityFilter({
  action,
  filter,
  count,
  years,
}: {
  action: string;
  filter: ActivityListFilter;
  count: number;
  years: number[];
}) {
  const [t, ta, common, plain] = await Promise.all([
    getTranslations("ActivityList"),
    getTranslations("Activities"),
    getTranslations("Common"),
    getPlainText(),
  ]);
  const filtered = Boolean(filter.q || filter.mode || filter.year);
  return (
    <form method="get" action={action} role="search" className="row wrap activity-filter" data-testid="activity-filter">
      {filter.tab ? <input type="hidden" name="tab" value={filter.tab} /> : null}
      <label className="field field-inline">
        <span className="field-label">
          <RichText text={t("search")} />
        </span>
        <input type="search" name="q" defaultValue={filter.q ?? ""} maxLength={200} data-testid="activity-search" />
      </label>
      <label className="field field-inline">
        <span className="field-label">
          <RichText text={t("mode")} />
        </span>
        <select name="mode" defaultValue={filter.mode ?? ""} data-testid="activity-mode-filter">
          <option value="">{plain(t("allModes"))}</option>
          {ACTIVITY_MODES.map((m) => (
            <option key={m} value={m}>
              {plain(ta(MODE_KEY[m]))}
            </option>
          ))}
        </select>
      </label>
      {years.length > 1 || filter.year ? (
        <label className="field field-inline">
          <span className="field-label">
            <RichText text={t("year")} />
          </span>
          <select name="year" defaultValue={filter.year ?? ""} data-testid="activity-year-filter">
            <option value="">{plain(t("allYears"))}</option>
            {years.map((y) => (
              <option key={y} value={y}>
                {plain(common("academicYear", { year: y }))}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit" className="button" data-testid="activity-filter-apply">
        <RichText text={t("apply")} />
      </button>
      {filtered ? (
        <>
          <Link href={filter.tab ? `${action}?tab=${filter.tab}` : action} data-testid="activity-filter-clear">
            <RichText text={t("clear")} />
          </Link>
          <span className="muted" role="status" data-testid="activity-found">
            <RichText text={t("found", { count })} />
          </span>
        </>
      ) : null}
    </form>
  );
}
