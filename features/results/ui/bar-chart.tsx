import { getTranslations } from "next-intl/server";
import { RichText } from "@/platform/ui/rich-text";
import { TableHead } from "@/platform/ui/table-head";

export interface Bar {
  id: string;
  /** Rich-text markup (ruby, math…), rendered as on every other screen. */
  label: string;
  /** The teacher marked it correct: the chart marks it (staff pages only). */
  correct?: boolean;
}

const percentOf = (n: number, total: number) => (total > 0 ? Math.round((n / total) * 1000) / 10 : 0);

/**
 * A distribution as HTML bars: each label rendered by the one rich-text
 * renderer beside its bar (SVG text could hold neither ruby nor typeset math),
 * then the same numbers in a table. The bars are a picture of the table, so
 * assistive technology reads the table alone.
 */
export async function BarChart({
  bars,
  counts,
  total,
}: {
  bars: Bar[];
  counts: Record<string, number>;
  total: number;
}) {
  const t = await getTranslations("Results");
  const ts = await getTranslations("Scenes");
  const mark = (b: Bar) =>
    b.correct ? (
      <span className="badge badge-correct" data-testid="chart-correct">
        <RichText text={ts("correctOption")} />
      </span>
    ) : null;
  const max = Math.max(1, ...bars.map((b) => counts[b.id] ?? 0));
  return (
    <figure className="chart" data-testid="chart">
      <ul className="bare-list stack chart-bars" aria-hidden="true">
        {bars.map((b) => {
          const n = counts[b.id] ?? 0;
          return (
            <li key={b.id} className={b.correct ? "result-row result-correct" : "result-row"}>
              <span className="result-label">
                <RichText text={b.label} />
                {mark(b)}
              </span>
              <span className="result-bar">
                <span style={{ width: `${(n / max) * 100}%` }} />
              </span>
              <span className="result-count">{n}</span>
            </li>
          );
        })}
      </ul>
      <div className="table-wrap">
        <table className="table table-compact" data-testid="chart-table">
          <TableHead labels={[t("option"), t("count"), t("percent")]} />
          <tbody>
            {bars.map((b) => (
              <tr
                key={b.id}
                data-option={b.id}
                data-count={counts[b.id] ?? 0}
                data-correct={b.correct ? "true" : undefined}
              >
                <th scope="row">
                  <RichText text={b.label} />
                  {mark(b)}
                </th>
                <td className="num">{counts[b.id] ?? 0}</td>
                <td className="num">{percentOf(counts[b.id] ?? 0, total)}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
