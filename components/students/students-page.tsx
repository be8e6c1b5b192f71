import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { requireRole } from "@/lib/auth/session";
import { formatDate } from "@/lib/i18n/dates";
import { getDisplayLanguage, getPlainText } from "@/lib/i18n/server";
import { authorizeSchool } from "@/lib/schools/scope";
import { listGroups, listStudents } from "@/lib/students/data";
import { type StudentListQuery, type StudentSort, studentListQuery } from "@/lib/students/schema";
import { PersonName } from "@/components/ui/person-name";
import { DateTime } from "@/components/ui/date-time";
import { RichText } from "@/components/ui/rich-text";
import { dayInJst } from "@/lib/time";
import { AddStudent } from "./add-student";
import { BulkActions } from "./bulk-actions";
import { ImportStudents } from "./import-students";
import { RowCheckbox, SelectAllCheckbox, SelectionProvider } from "./selection";
import { BalanceButton, GroupSelect } from "./group-controls";
import { PrintSheets } from "./print-sheets";
import { StudentRowActions } from "./student-row-actions";

type Params = Promise<Record<string, string | string[] | undefined>>;

function href(q: StudentListQuery, patch: Partial<StudentListQuery>): string {
  const next = { ...q, ...patch };
  const params = new URLSearchParams();
  if (next.page > 1) params.set("page", String(next.page));
  if (next.sort !== "grade") params.set("sort", next.sort);
  if (next.dir !== "asc") params.set("dir", next.dir);
  if (next.class) params.set("class", next.class);
  if (next.q) params.set("q", next.q);
  const s = params.toString();
  return `/dashboard/teacher/students${s ? `?${s}` : ""}`;
}

const COLUMNS: { key: StudentSort; label: "colClass" | "colName" | "colNickname" | "colEmail" | "colGroup" | "colLastSignIn" | "colStatus" }[] = [
  { key: "grade", label: "colClass" },
  { key: "nameKana", label: "colName" },
  { key: "nickname", label: "colNickname" },
  { key: "email", label: "colEmail" },
  { key: "group", label: "colGroup" },
  { key: "lastSignIn", label: "colLastSignIn" },
  { key: "status", label: "colStatus" },
];

/** /dashboard/teacher/students: the school's students, paged on the server (smooth with 1,000). */
export async function StudentsPage({ searchParams }: { searchParams: Params }) {
  const actor = await requireRole("teacher");
  const t = await getTranslations("Students");
  const guard = await getTranslations("Guard");
  const portfolio = await getTranslations("Portfolio");
  const school = await authorizeSchool(actor, undefined);
  if (!school) {
    return (
      <p className="alert alert-error" role="alert" data-testid="no-permission">
        <RichText text={guard("noPermission")} />
      </p>
    );
  }
  const raw = await searchParams;
  const q = studentListQuery.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const lang = await getDisplayLanguage();
  const plain = await getPlainText();
  const [{ rows, total, pages, classes }, groups] = await Promise.all([listStudents(school, q), listGroups(school)]);
  return (
    <div className="stack">
      <div className="row page-head">
        <h1>
          <RichText text={t("title")} />
        </h1>
        <span className="muted" data-testid="student-total">
          <RichText text={t("total", { count: total })} />
        </span>
        <span className="top-bar-spacer" />
        <BalanceButton className={q.class} groups={groups} />
        <PrintSheets className={q.class} />
        <ImportStudents />
        <AddStudent />
      </div>
      <form className="row toolbar" method="get" role="search">
        <label className="field">
          <span className="visually-hidden">{plain(t("search"))}</span>
          <input name="q" type="search" defaultValue={q.q ?? ""} placeholder={plain(t("search"))} data-testid="student-search" />
        </label>
        <label className="field">
          <span className="visually-hidden">{plain(t("classFilter"))}</span>
          <select name="class" defaultValue={q.class ?? ""} data-testid="class-filter">
            <option value="">{plain(t("allClasses"))}</option>
            {classes.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button">
          <RichText text={t("searchButton")} />
        </button>
      </form>
      <SelectionProvider pageIds={rows.map((r) => r.id)}>
      {rows.length > 0 ? <BulkActions groups={groups} /> : null}
      {rows.length === 0 ? (
        <p className="empty" data-testid="students-empty">
          <RichText text={q.q || q.class ? t("noMatch") : t("empty")} />
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="student-table">
            <thead>
              <tr>
                <th scope="col" className="check-cell">
                  <SelectAllCheckbox label={t("selectAll")} />
                </th>
                {COLUMNS.map((c) => {
                  const active = q.sort === c.key;
                  const dir = active && q.dir === "asc" ? "desc" : "asc";
                  return (
                    <th key={c.key} scope="col" aria-sort={active ? (q.dir === "asc" ? "ascending" : "descending") : undefined}>
                      <Link href={href(q, { sort: c.key, dir, page: 1 })} data-sort={c.key}>
                        <RichText text={t(c.label)} />
                        {active ? (q.dir === "asc" ? " ▲" : " ▼") : null}
                      </Link>
                    </th>
                  );
                })}
                <th scope="col">
                  <RichText text={t("colActions")} />
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id} data-student-id={s.id} data-email={s.email ?? ""}>
                  <td className="check-cell">
                    <RowCheckbox id={s.id} label={plain(t("selectRow", { name: s.name ?? "" }))} />
                  </td>
                  <td className="num">
                    {s.grade !== null ? (
                      <>
                        <RichText text={t("classLabel", { grade: s.grade, className: s.className ?? "" })} /> {s.number}
                      </>
                    ) : (
                      <span className="muted" data-testid="seat-unset">
                        <RichText text={t("seatUnset")} />
                      </span>
                    )}
                  </td>
                  <th scope="row">
                    <Link href={`/dashboard/teacher/portfolio/${s.id}`} data-testid="portfolio-of" title={plain(portfolio("link"))}>
                      {s.name ? <PersonName name={{ base: s.name, reading: s.nameKana }} /> : plain(portfolio("link"))}
                    </Link>
                  </th>
                  <td>{s.nickname}</td>
                  <td>{s.email}</td>
                  <td>
                    <GroupSelect studentId={s.id} group={s.group} groups={groups} name={s.name ?? ""} />
                  </td>
                  <td>
                    <DateTime at={s.lastSignInAt} fallback={t("never")} />
                  </td>
                  <td>
                    <span data-testid="status">
                      <RichText text={s.disabled ? t("disabled") : t("active")} />
                    </span>
                    {s.codeExpiresAt ? (
                      <span className="muted small-block" data-testid="code-expiry" data-day={dayInJst(s.codeExpiresAt)}>
                        <RichText text={t("codeExpires", { day: formatDate(s.codeExpiresAt, lang) })} />
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <StudentRowActions
                      studentId={s.id}
                      disabled={s.disabled}
                      hasCode={s.hasCode}
                      name={s.name ?? ""}
                      classLine={s.grade !== null ? plain(t("classLabel", { grade: s.grade, className: s.className ?? "" })) + ` ${s.number ?? ""}` : ""}
                      responses={s.responses}
                      values={{
                        name: s.name ?? "", nameKana: s.nameKana ?? "", nickname: s.nickname ?? "", email: s.email ?? "",
                        grade: s.grade, className: s.className, number: s.number, group: s.group ?? "",
                        displayLanguage: s.displayLanguage ?? "",
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      </SelectionProvider>
      {pages > 1 ? (
        <nav className="row pager" aria-label={plain(t("page", { page: q.page, pages }))}>
          {q.page > 1 ? (
            <Link className="button" href={href(q, { page: q.page - 1 })} data-testid="prev-page">
              <RichText text={t("prev")} />
            </Link>
          ) : null}
          <span data-testid="page-info">
            <RichText text={t("page", { page: q.page, pages })} />
          </span>
          {q.page < pages ? (
            <Link className="button" href={href(q, { page: q.page + 1 })} data-testid="next-page">
              <RichText text={t("next")} />
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
