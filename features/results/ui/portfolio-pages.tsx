import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { formatDate, formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage, getPlainText } from "@/platform/i18n/server";
import { listPortfolios, portfolioOf, portfolioQuery } from "@/features/results/server/portfolio-queries";
import { authorizeSchool } from "@/platform/auth/scope";
import { answerDrawings, drawingLabel } from "@/features/scenes/ui/answer-drawings";
import { AnswerReview } from "@/features/play/ui/answer-review";
import { renderScene } from "@/features/scenes/ui/render-scene";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";
import type { DisplayLanguage } from "@/platform/i18n/languages";
import { MarkNote } from "./mark-note";
import { SeatLabel } from "./student-label";

type Params = Promise<Record<string, string | string[] | undefined>>;
type PortfolioResponse = NonNullable<
  Awaited<ReturnType<typeof portfolioOf>>
>["activities"][number]["responses"][number];

async function teacherSchool() {
  const actor = await requireRole("teacher");
  const school = await authorizeSchool(actor, undefined);
  if (!school) notFound();
  return school;
}

/** /dashboard/teacher/portfolio: the school's students with activities done and the last one, sortable and searchable. */
export async function PortfolioListPage({ searchParams }: { searchParams: Params }) {
  const school = await teacherSchool();
  const raw = await searchParams;
  const q = portfolioQuery.parse(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])),
  );
  const rows = await listPortfolios(school, q);
  const t = await getTranslations("Portfolio");
  const lang = await getDisplayLanguage();
  const plain = await getPlainText();
  const sortHref = (sort: typeof q.sort) => {
    const p = new URLSearchParams();
    if (q.q) p.set("q", q.q);
    p.set("sort", sort);
    p.set("dir", q.sort === sort && q.dir === "asc" ? "desc" : "asc");
    return `/dashboard/teacher/portfolio?${p}`;
  };
  const columns = [
    ["class", "colClass"],
    ["name", "colName"],
    ["activities", "colActivities"],
    ["last", "colLast"],
  ] as const;
  return (
    <div className="stack">
      <h1>
        <RichText text={t("title")} />
      </h1>
      <form className="row toolbar" method="get" role="search">
        <label className="field">
          <span className="visually-hidden">{plain(t("search"))}</span>
          <input
            name="q"
            type="search"
            defaultValue={q.q ?? ""}
            placeholder={plain(t("search"))}
            data-testid="portfolio-search"
          />
        </label>
        <button type="submit" className="button">
          <RichText text={t("searchButton")} />
        </button>
      </form>
      {rows.length === 0 ? (
        <p className="empty" data-testid="portfolio-empty">
          <RichText text={t("empty")} />
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="portfolio-table">
            <thead>
              <tr>
                {columns.map(([key, label]) => (
                  <th
                    key={key}
                    scope="col"
                    aria-sort={q.sort === key ? (q.dir === "asc" ? "ascending" : "descending") : undefined}
                  >
                    <Link href={sortHref(key)} data-sort={key}>
                      <RichText text={t(label)} />
                    </Link>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <PortfolioRow key={r.id} row={r} lang={lang} never={t("never")} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** A student's row: seat, name (to their portfolio), activities done, and the last one (or never). */
function PortfolioRow({
  row: r,
  lang,
  never,
}: {
  row: Awaited<ReturnType<typeof listPortfolios>>[number];
  lang: DisplayLanguage;
  never: string;
}) {
  return (
    <tr data-student-id={r.id} data-activities={r.activities}>
      <td className="seat-cell">
        <SeatLabel seat={{ grade: r.grade, className: r.class_name, number: r.number }} />
      </td>
      <th scope="row">
        <Link href={`/dashboard/teacher/portfolio/${r.id}`}>
          {r.name ? <PersonName name={{ base: r.name, reading: r.name_kana }} /> : r.id}
        </Link>
      </th>
      <td className="num">{r.activities}</td>
      <td>
        {r.last_at ? (
          <>
            {r.last_title ? (
              <span className="small-block" data-testid="last-title">
                <RichText text={r.last_title} />
              </span>
            ) : null}
            <span className="muted small-block">
              <RichText text={formatDateTime(r.last_at, lang)} />
            </span>
          </>
        ) : (
          <RichText text={never} />
        )}
      </td>
    </tr>
  );
}

/** The teachers' marks and comments under the answers of one activity (the comment as written, in its markup). */
function marksOf(responses: PortfolioResponse[]) {
  return Object.fromEntries(
    responses.flatMap((r) =>
      r.mark && (r.mark.verdict || r.mark.comment)
        ? [
            [
              r.sceneId,
              <MarkNote
                key={r.sceneId}
                mark={{ verdict: r.mark.verdict, comment: r.mark.comment, stale: r.updatedAt > r.mark.answerAt }}
              />,
            ],
          ]
        : [],
    ),
  );
}

/** /dashboard/teacher/portfolio/{studentId}: every activity the student took, newest first, with their answers; printable. */
export async function PortfolioDetailPage({ studentId }: { studentId: string }) {
  const school = await teacherSchool();
  const data = await portfolioOf(school, studentId);
  if (!data) notFound();
  const t = await getTranslations("Portfolio");
  const tr = await getTranslations("Results");
  const common = await getTranslations("Common");
  const lang = await getDisplayLanguage();
  const s = data.student;
  const label = await drawingLabel();
  return (
    <div className="stack portfolio">
      <h1 data-testid="portfolio-student">
        {s.name ? <PersonName name={{ base: s.name, reading: s.nameKana }} /> : null}
        {s.student ? (
          <span className="muted">
            {" "}
            <SeatLabel seat={s.student} />
          </span>
        ) : null}
      </h1>
      <p className="row no-print">
        <Link className="button" href="/dashboard/teacher/portfolio">
          <RichText text={t("backToList")} />
        </Link>
        <span className="muted">
          <RichText text={t("printHint")} />
        </span>
      </p>
      {data.activities.length === 0 ? (
        <p className="empty" data-testid="portfolio-none">
          <RichText text={t("none")} />
        </p>
      ) : (
        data.activities.map((a) => {
          const scenes = a.scenes.map((x) => renderScene(x, lang)).filter((x): x is RenderedScene => x !== null);
          const answers = Object.fromEntries(a.responses.map((r) => [r.sceneId, r.answer as SceneAnswer]));
          // which version an answer belongs to, where the scene has several (docs/adr/0059-scene-versions.md)
          const versions = Object.fromEntries(
            a.scenes.flatMap((x) =>
              x.answeredVersion ? [[x.id, tr("answeredVersion", { v: x.answeredVersion })]] : [],
            ),
          );
          return (
            <section
              key={a.id}
              className="card stack portfolio-activity"
              data-activity-id={a.id}
              aria-labelledby={`pa-${a.id}`}
            >
              <h2 id={`pa-${a.id}`}>
                <RichText text={a.title} />
              </h2>
              <p className="muted">
                <span data-testid="portfolio-year">
                  <RichText text={common("academicYear", { year: a.academicYear })} />
                </span>{" "}
                <RichText text={t("lastAnswered", { date: formatDate(a.lastAt, lang) })} />
              </p>
              <AnswerReview
                scenes={scenes}
                answers={answers}
                meta={versions}
                drawings={answerDrawings(scenes, answers, label)}
                extra={marksOf(a.responses)}
              />
            </section>
          );
        })
      )}
    </div>
  );
}
