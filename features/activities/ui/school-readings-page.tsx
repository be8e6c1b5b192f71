import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { type AuthorizedSchoolId, authorizeSchool } from "@/platform/auth/scope";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { Pager } from "@/platform/ui/pager";
import { PersonName } from "@/platform/ui/person-name";
import { getSchoolName } from "@/features/people/server/school-queries";
import { RichText } from "@/platform/ui/rich-text";
import { TableHead } from "@/platform/ui/table-head";
import { type ListedReading, listReadingsPage } from "../server/school-reading-queries";
import { readingsQuery, type ReadingsQuery, readingsSearch } from "../shared/school-readings";
import { ReadingActions } from "./reading-actions";

type Params = Promise<Record<string, string | string[] | undefined>>;

export const TEACHER_READINGS_PATH = "/dashboard/teacher/readings";
export const managerReadingsPath = (schoolId: string) => `/dashboard/manager/schools/${schoolId}/readings`;

const SOURCE_KEYS = { roster: "sourceRoster", editor: "sourceEditor", page: "sourcePage" } as const;

/** /dashboard/teacher/readings: the readings the teacher's school's furigana uses. */
export async function TeacherReadingsPage({ searchParams }: { searchParams: Params }) {
  const actor = await requireRole("teacher");
  const school = await authorizeSchool(actor, null);
  if (!school) notFound();
  return <ReadingsList school={school} q={readingsQuery.parse(await searchParams)} path={TEACHER_READINGS_PATH} />;
}

/** /dashboard/manager/schools/{schoolId}/readings: the same for a school of the manager's academy, named above the list. */
export async function ManagerReadingsPage({ schoolId, searchParams }: { schoolId: string; searchParams: Params }) {
  const actor = await requireRole("manager");
  const school = await authorizeSchool(actor, schoolId);
  if (!school) notFound();
  const path = managerReadingsPath(school);
  const [t, name] = await Promise.all([getTranslations("Rollover"), getSchoolName(school)]);
  return (
    <div className="stack">
      <p className="row">
        <Link href={`/dashboard/manager/schools/${school}`} data-testid="back-to-school">
          <RichText text={t("back")} />
        </Link>
        <span data-testid="readings-school">
          <PersonName name={{ base: name.name, reading: name.nameKana }} />
        </span>
      </p>
      <ReadingsList school={school} q={readingsQuery.parse(await searchParams)} path={path} schoolId={school} />
    </div>
  );
}

/**
 * The school's readings (features/activities/README.md "Furigana"): a search, the count, one page of the list
 * with where each reading came from, when and by whom; a word of the school's list can be corrected or deleted,
 * a roster name is corrected in the roster.
 */
async function ReadingsList({
  school,
  q,
  path,
  schoolId,
}: {
  school: AuthorizedSchoolId;
  q: ReadingsQuery;
  path: string;
  schoolId?: string;
}) {
  const [t, { rows, total, pages }] = await Promise.all([
    getTranslations("SchoolReadings"),
    listReadingsPage(school, q),
  ]);
  return (
    <div className="stack school-readings">
      <div className="row page-head">
        <h1>
          <RichText text={t("title")} />
        </h1>
        <span className="muted" data-testid="readings-total">
          <RichText text={t("total", { count: total })} />
        </span>
      </div>
      <p className="muted">
        <RichText text={t("lead")} />
      </p>
      <form className="row toolbar" method="get" action={path} role="search">
        <label className="field">
          <span className="field-label">
            <RichText text={t("search")} />
          </span>
          <input name="q" type="search" defaultValue={q.q ?? ""} maxLength={60} data-testid="readings-search" />
        </label>
        <button type="submit" className="button" data-testid="readings-search-submit">
          <RichText text={t("searchButton")} />
        </button>
      </form>
      {rows.length === 0 ? (
        <p className="empty" data-testid="readings-empty">
          <RichText text={q.q ? t("noMatch", { q: q.q }) : t("empty")} />
        </p>
      ) : (
        <ReadingsTable rows={rows} schoolId={schoolId} />
      )}
      <Pager page={q.page} pages={pages} hrefOf={(page) => `${path}${readingsSearch({ ...q, page })}`} />
    </div>
  );
}

async function ReadingsTable({ rows, schoolId }: { rows: ListedReading[]; schoolId?: string }) {
  const [t, lang] = await Promise.all([getTranslations("SchoolReadings"), getDisplayLanguage()]);
  const labels = [t("colWord"), t("colReading"), t("colSource"), t("colWhen"), t("colBy"), t("colActions")];
  return (
    <div className="table-wrap">
      <table className="table school-readings-table" data-testid="readings-table">
        <TableHead labels={labels} />
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.source}:${r.base}:${r.reading}`} data-testid="reading-row" data-source={r.source}>
              <th scope="row" lang="ja" className="nowrap" data-testid="reading-word">
                {r.base}
              </th>
              <td className="nowrap" data-testid="reading-reading">
                {r.reading}
              </td>
              <td>
                <RichText text={t(SOURCE_KEYS[r.source])} />
              </td>
              <td className="nowrap">
                <RichText text={formatDateTime(r.at, lang)} />
              </td>
              <td>{r.by ?? t("nobody")}</td>
              <td>
                {r.source === "roster" ? (
                  <span className="muted">
                    <RichText text={t("rosterNote")} />
                  </span>
                ) : (
                  <ReadingActions base={r.base} reading={r.reading} schoolId={schoolId} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
