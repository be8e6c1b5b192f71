import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { requireRole } from "@/platform/auth/session";
import { getPlainText } from "@/platform/i18n/server";
import { authorizeSchool } from "@/platform/auth/scope";
import { listGroups, listStudents } from "@/features/people/server/queries";
import { type StudentListQuery, studentListQuery } from "@/features/people/shared/schema";
import { NoPermission } from "@/platform/ui/layout/no-permission";
import { RichText } from "@/platform/ui/rich-text";
import { AddStudent } from "./add-student";
import { BulkActions, BulkHint } from "./bulk-actions";
import { ImportStudents } from "./import-students";
import { SelectionProvider } from "./selection";
import { BalanceButton } from "./group-controls";
import { PrintSheets } from "./print-sheets";
import { classKeyOf, type SchoolClass } from "@/features/people/shared/class-key";
import { StudentsTable } from "./students-table";
import { Pager } from "@/platform/ui/pager";

type Params = Promise<Record<string, string | string[] | undefined>>;

function href(q: StudentListQuery, patch: Partial<StudentListQuery>): string {
  const next = { ...q, ...patch };
  const params = new URLSearchParams();
  if (next.page > 1) params.set("page", String(next.page));
  if (next.sort !== "grade") params.set("sort", next.sort);
  if (next.dir !== "asc") params.set("dir", next.dir);
  if (next.class) params.set("class", next.class);
  if (next.q) params.set("q", next.q);
  if (next.view !== "current") params.set("view", next.view);
  const s = params.toString();
  return `/dashboard/teacher/students${s ? `?${s}` : ""}`;
}

/** /dashboard/teacher/students: the school's students, paged on the server (smooth with 1,000). */
export async function StudentsPage({ searchParams }: { searchParams: Params }) {
  const actor = await requireRole("teacher");
  const t = await getTranslations("Students");
  const school = await authorizeSchool(actor, undefined);
  if (!school) {
    return <NoPermission />;
  }
  const raw = await searchParams;
  const q = studentListQuery.parse(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])),
  );
  const [{ rows, total, pages, classes }, groups] = await Promise.all([listStudents(school, q), listGroups(school)]);
  return (
    <div className="stack students-page">
      <div className="row page-head">
        <h1>
          <RichText text={t("title")} />
        </h1>
        <span className="muted" data-testid="student-total">
          <RichText text={t("total", { count: total })} />
        </span>
        <span className="top-bar-spacer" />
        <BalanceButton klass={q.class} groups={groups} />
        <PrintSheets klass={q.class} />
        <ImportStudents />
        <AddStudent />
      </div>
      <SelectionProvider pageIds={rows.map((r) => r.id)}>
        <StudentSearch q={q} classes={classes} hasRows={rows.length > 0} />
        {rows.length === 0 ? (
          <p className="empty" data-testid="students-empty">
            <RichText text={q.q || q.class ? t("noMatch") : q.view === "graduates" ? t("noGraduates") : t("empty")} />
          </p>
        ) : (
          <StudentsTable rows={rows} q={q} groups={groups} hrefFor={(patch) => href(q, patch)} />
        )}
        <Pager page={q.page} pages={pages} hrefOf={(page) => href(q, { page })} />
        {rows.length > 0 ? <BulkActions groups={groups} /> : null}
      </SelectionProvider>
    </div>
  );
}

/** The view tabs (current, graduates), the search and the class filter. */
async function StudentSearch({
  q,
  classes,
  hasRows,
}: {
  q: StudentListQuery;
  classes: SchoolClass[];
  hasRows: boolean;
}) {
  const t = await getTranslations("Students");
  const plain = await getPlainText();
  return (
    <form className="row toolbar" method="get" role="search">
      <nav className="tabs" aria-label={plain(t("viewLabel"))} data-testid="student-view">
        {(["current", "graduates"] as const).map((view) => (
          <Link
            key={view}
            className="tab"
            href={href(q, { view, page: 1, class: undefined })}
            aria-current={q.view === view ? "page" : undefined}
            data-testid={`view-${view}`}
          >
            <RichText text={t(view === "current" ? "viewCurrent" : "viewGraduates")} />
          </Link>
        ))}
      </nav>
      {q.view === "graduates" ? <input type="hidden" name="view" value="graduates" /> : null}
      <label className="field">
        <span className="visually-hidden">{plain(t("search"))}</span>
        <input
          name="q"
          type="search"
          defaultValue={q.q ?? ""}
          placeholder={plain(t("search"))}
          data-testid="student-search"
        />
      </label>
      <label className="field">
        <span className="visually-hidden">{plain(t("classFilter"))}</span>
        <select name="class" defaultValue={q.class ?? ""} data-testid="class-filter">
          <option value="">{plain(t("allClasses"))}</option>
          {classes.map((c) => (
            <option key={classKeyOf(c.grade, c.className)} value={classKeyOf(c.grade, c.className)!}>
              {plain(t("classLabel", { ...c }))}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        <RichText text={t("searchButton")} />
      </button>
      {hasRows ? <BulkHint /> : null}
    </form>
  );
}
