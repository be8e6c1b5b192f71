import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { CorrectRate } from "@/features/results/server/correct-rate-queries";
import type { ActivityStats, SceneStats } from "@/features/results/server/stats";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";
import { MarkBadge } from "@/features/results/ui/mark-badge";
import { firstPart, ShowAll } from "./show-all";
import { SeatLabel, StudentLabel } from "./student-label";

/** One free-text scene's answers with who wrote them: the first part, then "show all" (`whole`: asked for whole at `showHref`). */
export async function FreeTexts({ stats, whole, showHref }: { stats: SceneStats; whole: boolean; showHref: string }) {
  const t = await getTranslations("Results");
  if (stats.texts.length === 0) {
    return (
      <p className="empty">
        <RichText text={t("noTexts")} />
      </p>
    );
  }
  return (
    <div id={`texts-${stats.id}`} className="stack">
      <ul className="stack bare-list free-texts" data-testid="free-texts">
        {firstPart(stats.texts, whole).map((x) => (
          <li key={x.who.id} className="reason">
            <span>{x.text}</span>{" "}
            <span className="who muted">
              — <StudentLabel who={x.who} />
            </span>{" "}
            <MarkBadge mark={x.mark} />
          </li>
        ))}
      </ul>
      <ShowAll total={stats.texts.length} whole={whole} href={showHref} />
    </div>
  );
}

/** Who started, with how many questions each answered (a link to their answers): the first part, then "show all". */
export async function Respondents({
  stats,
  responseBase,
  whole,
  showHref,
}: {
  stats: ActivityStats;
  responseBase: string;
  whole: boolean;
  showHref: string;
}) {
  const t = await getTranslations("Results");
  return (
    <section id="respondents" className="stack" aria-labelledby="respondents-title">
      <h2 id="respondents-title">
        <RichText text={t("respondents")} />
      </h2>
      {stats.respondents.length === 0 ? (
        <p className="empty" data-testid="no-respondents">
          <RichText text={t("noRespondents")} />
        </p>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="respondents">
            <tbody>
              {firstPart(stats.respondents, whole).map((r) => (
                <tr key={r.id} data-student-id={r.id}>
                  <td className="seat-cell">
                    <SeatLabel seat={r.seat} />
                  </td>
                  <th scope="row">
                    <Link href={`${responseBase}/${r.id}`} prefetch={false}>
                      <PersonName name={r.name} />
                    </Link>
                  </th>
                  <td className="num">
                    <RichText text={t("answeredOf", { answered: r.answered, total: stats.questions })} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ShowAll total={stats.respondents.length} whole={whole} href={showHref} />
    </section>
  );
}

/** A scene's correct rate (scenes with a key), then per counterbalance group. */
export async function CorrectRateLine({ rate }: { rate: CorrectRate }) {
  const t = await getTranslations("Results");
  const pct = (r: { correct: number; answered: number }) =>
    r.answered > 0 ? Math.round((r.correct / r.answered) * 1000) / 10 : 0;
  const groups = Object.entries(rate.groups).sort(([a], [b]) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)));
  // free text and drawing: from the teachers' marks, "partly" on its own (features/results/server/correct-rate-queries.ts)
  const tm = await getTranslations("Marks");
  return (
    <div
      className="stack correct-rate"
      data-testid="correct-rate"
      data-correct={rate.all.correct}
      data-answered={rate.all.answered}
      data-partly={rate.all.partly ?? ""}
    >
      <p>
        <strong>
          <RichText
            text={
              rate.marked
                ? tm("markedRate", {
                    rate: pct(rate.all),
                    correct: rate.all.correct,
                    answered: rate.all.answered,
                    partly: rate.all.partly ?? 0,
                  })
                : t("correctRate", { rate: pct(rate.all), correct: rate.all.correct, answered: rate.all.answered })
            }
          />
        </strong>
      </p>
      {groups.length > 1 || (groups.length === 1 && groups[0]![0] !== "") ? (
        <ul className="bare-list row wrap">
          {groups.map(([g, r]) => (
            <li key={g} data-group={g} data-correct={r.correct} data-answered={r.answered}>
              <RichText
                text={t("correctRateGroup", {
                  group: g === "" ? t("noGroup") : t("groupName", { group: g }),
                  rate: pct(r),
                  correct: r.correct,
                  answered: r.answered,
                })}
              />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
