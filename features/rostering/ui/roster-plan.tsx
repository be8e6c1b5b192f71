"use client";
import { useTranslations } from "next-intl";
import type { Problem } from "@/features/rostering/shared/oneroster-model";
import type { Counts, PreviewList as Listed, SchoolSummary } from "@/features/rostering/shared/types";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { placeOf } from "./roster-send";

const KINDS = ["students", "teachers", "classes"] as const;
const ACTIONS = ["create", "update", "move", "link", "disable"] as const;

/** Every problem (or, `warning`, every warning of a plan that applies) with its file, line and column, in the page's display language. */
export function RosterProblems({ problems, warning = false }: { problems: Problem[]; warning?: boolean }) {
  const t = useTranslations("Roster");
  const tp = useTranslations("RosterProblems");
  const ti = useTranslations("RosterImportProblems");
  // the reader's problems and the database's (features/rostering/shared/oneroster-problems.ts, features/rostering/shared/problems.ts), each in the page's language
  const text = (p: Problem) =>
    !p.params
      ? p.message
      : tp.has(p.code as never)
        ? tp(p.code as never, p.params as never)
        : ti.has(p.code as never)
          ? ti(p.code as never, p.params as never)
          : p.message;
  return (
    <div className="stack" data-testid={warning ? "roster-warnings" : "roster-problems"}>
      <p className={warning ? "alert alert-warning" : "alert alert-error"} role={warning ? "status" : "alert"}>
        <span>
          <RichTextClient text={t(warning ? "warningsLead" : "problemsLead", { count: problems.length })} />
        </span>
      </p>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">
                <RichTextClient text={t("file")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("line")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("column")} />
              </th>
              <th scope="col">
                <RichTextClient text={t("problem")} />
              </th>
            </tr>
          </thead>
          <tbody>
            {problems.map((p, i) => {
              const place = placeOf(p);
              return (
                <tr
                  key={i}
                  data-testid={warning ? "roster-warning" : "roster-problem"}
                  data-file={p.file}
                  data-line={p.line}
                  data-column={p.column}
                >
                  <td>{place.file}</td>
                  <td className="num">{place.line}</td>
                  <td>{place.column}</td>
                  <td>
                    <RichTextClient text={text(p)} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function CountCells({ counts }: { counts: Counts }) {
  return ACTIONS.map((a) => (
    <td key={a} className="num" data-action={a}>
      {counts[a]}
    </td>
  ));
}

/** The first rows of one kind the plan lists (features/rostering/shared/types.ts PREVIEW_ROWS), and how many more there are. */
function PreviewList({ kind, list: { rows, total } }: { kind: (typeof KINDS)[number]; list: Listed }) {
  const t = useTranslations("Roster");
  if (total === 0) return null;
  return (
    <details data-testid={`roster-preview-${kind}`}>
      <summary>
        <RichTextClient text={t(`kind.${kind}`)} /> ({total})
      </summary>
      <ul className="stack">
        {rows.map((r) => (
          <li key={`${r.action}-${r.sourcedId}`} data-action={r.action}>
            <RichTextClient text={t(`action.${r.action}`)} />
            {"："}
            {r.grade !== null ? (
              <RichTextClient
                text={t("seat", { grade: r.grade, className: r.className ?? "", number: r.number ?? 0 })}
              />
            ) : null}{" "}
            {r.nameKana ? (
              <ruby>
                {r.name}
                <rt>{r.nameKana}</rt>
              </ruby>
            ) : (
              r.name
            )}
          </li>
        ))}
      </ul>
      {total > rows.length ? (
        <p className="muted">
          <RichTextClient text={t("more", { count: total - rows.length })} />
        </p>
      ) : null}
    </details>
  );
}

/** Per school: what would be created, changed, moved and disabled, and who. */
export function RosterSchools({ schools }: { schools: SchoolSummary[] }) {
  const t = useTranslations("Roster");
  if (schools.length === 0) {
    return (
      <p className="empty" data-testid="roster-no-schools">
        <RichTextClient text={t("noSchools")} />
      </p>
    );
  }
  return (
    <div className="stack">
      {schools.map((s) => (
        <section key={s.sourcedId} className="stack" data-testid="roster-school" data-sourced-id={s.sourcedId}>
          <h3>{s.name}</h3>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">
                      <RichTextClient text={t("what")} />
                    </span>
                  </th>
                  {ACTIONS.map((a) => (
                    <th key={a} scope="col" className="num">
                      <RichTextClient text={t(`action.${a}`)} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {KINDS.map((k) => (
                  <tr key={k} data-kind={k}>
                    <th scope="row">
                      <RichTextClient text={t(`kind.${k}`)} />
                    </th>
                    <CountCells counts={s[k]} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {KINDS.map((k) => (
            <PreviewList key={k} kind={k} list={s.preview[k]} />
          ))}
        </section>
      ))}
    </div>
  );
}
