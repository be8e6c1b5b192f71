import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { formatDate } from "@/platform/i18n/dates";
import { getDisplayLanguage, getPlainText } from "@/platform/i18n/server";
import type { StudentRow } from "@/features/people/server/queries";
import type { StudentListQuery, StudentSort } from "@/features/people/shared/schema";
import { dayInJst } from "@/platform/time";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";
import { GraduatedIn } from "./graduated-in";
import { GroupSelect } from "./group-controls";
import { RowCheckbox, SelectAllCheckbox } from "./selection";
import { StudentRowActions } from "./student-row-actions";

/** The table's sortable columns (docs/requirements.md: 年・組・番号, name with reading, group, code state). */
const COLUMNS: { key: StudentSort; label: "colClass" | "colName" | "colGroup" | "colStatus" }[] = [
  { key: "grade", label: "colClass" },
  { key: "nameKana", label: "colName" },
  { key: "group", label: "colGroup" },
  { key: "status", label: "colStatus" },
];

/** A sign-in code's state as a row shows it: none, usable (until a day or not), or past its day. */
function codeState(row: StudentRow, now: Date): "none" | "active" | "expired" {
  if (!row.hasCode) return "none";
  return row.codeExpiresAt && row.codeExpiresAt <= now ? "expired" : "active";
}

/** One page of students, one compact line each; the column headers sort (links, so the URL keeps the order). */
export async function StudentsTable({
  rows,
  q,
  groups,
  hrefFor,
}: {
  rows: StudentRow[];
  q: StudentListQuery;
  groups: string[];
  hrefFor: (patch: Partial<StudentListQuery>) => string;
}) {
  const text = await rowText();
  const { t } = text;
  const now = new Date();
  return (
    <div className="table-wrap">
      <table className="table students-table" data-testid="student-table">
        <thead>
          <tr>
            <th scope="col" className="check-cell">
              <SelectAllCheckbox label={t("selectAll")} />
            </th>
            {COLUMNS.map((c) => {
              const active = q.sort === c.key;
              const dir = active && q.dir === "asc" ? "desc" : "asc";
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (q.dir === "asc" ? "ascending" : "descending") : undefined}
                >
                  <Link href={hrefFor({ sort: c.key, dir, page: 1 })} data-sort={c.key}>
                    <RichText text={t(c.label)} />
                    {active ? <span aria-hidden="true">{q.dir === "asc" ? " ▲" : " ▼"}</span> : null}
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
            <StudentLine key={s.id} s={s} groups={groups} now={now} text={text} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The words every line uses, read once for the page. */
async function rowText() {
  return {
    t: await getTranslations("Students"),
    portfolio: await getTranslations("Portfolio"),
    lang: await getDisplayLanguage(),
    plain: await getPlainText(),
  };
}
type RowText = Awaited<ReturnType<typeof rowText>>;

/** One student's line: seat, name (a link to the portfolio), group, account and code state, actions. */
function StudentLine({ s, groups, now, text }: { s: StudentRow; groups: string[]; now: Date; text: RowText }) {
  const { t, portfolio, lang, plain } = text;
  const classLine = s.grade !== null ? plain(t("classLabel", { grade: s.grade, className: s.className ?? "" })) : null;
  return (
    <tr data-student-id={s.id} data-email={s.email ?? ""}>
      <td className="check-cell">
        <RowCheckbox id={s.id} label={plain(t("selectRow", { name: s.name ?? "" }))} />
      </td>
      <td className="num">
        {s.grade !== null ? (
          <>
            <RichText text={t("classLabel", { grade: s.grade, className: s.className ?? "" })} /> {s.number}
            <GraduatedIn year={s.graduatedYear} />
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
        {/* plain Japanese shows no ruby: the reading follows the name (furigana shows it as ruby, kana shows only it) */}
        {lang === "ja" && s.name && s.nameKana ? <span className="muted name-reading">{s.nameKana}</span> : null}
      </th>
      <td>
        <GroupSelect studentId={s.id} group={s.group} groups={groups} name={s.name ?? ""} />
      </td>
      <CodeStateCell s={s} now={now} text={text} />
      <td>
        <StudentRowActions
          studentId={s.id}
          disabled={s.disabled}
          hasCode={s.hasCode}
          name={s.name ?? ""}
          classLine={classLine !== null ? `${classLine} ${s.number ?? ""}` : ""}
          responses={s.responses}
          values={{
            name: s.name ?? "",
            nameKana: s.nameKana ?? "",
            nickname: s.nickname ?? "",
            email: s.email ?? "",
            grade: s.grade,
            className: s.className,
            number: s.number,
            group: s.group ?? "",
            displayLanguage: s.displayLanguage ?? "",
          }}
        />
      </td>
    </tr>
  );
}

/** The account's state and the sign-in code's, with the code's last day while it is usable. */
function CodeStateCell({ s, now, text }: { s: StudentRow; now: Date; text: RowText }) {
  const { t, lang } = text;
  const state = codeState(s, now);
  return (
    <td className="state-cell">
      <span data-testid="status" className={s.disabled ? "state-stopped" : undefined}>
        <RichText text={s.disabled ? t("disabled") : t("active")} />
      </span>
      <span aria-hidden="true"> ・ </span>
      <span data-testid="code-state" data-state={state} className={state === "active" ? undefined : "muted"}>
        <RichText text={t(state === "none" ? "codeNone" : state === "expired" ? "codeExpired" : "codeActive")} />
      </span>
      {s.codeExpiresAt && state === "active" ? (
        <span className="muted" data-testid="code-expiry" data-day={dayInJst(s.codeExpiresAt)}>
          <RichText text={t("codeUntil", { day: formatDate(s.codeExpiresAt, lang) })} />
        </span>
      ) : null}
    </td>
  );
}
