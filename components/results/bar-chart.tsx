import { getTranslations } from "next-intl/server";
import type { DisplayLanguage } from "@/lib/i18n/languages";
import { toPlainText } from "@/lib/richtext/plain";
import { RichText } from "@/components/ui/rich-text";

/** A label that fits left of the bars (the table below has the whole text). */
const short = (text: string) => (Array.from(text).length > 13 ? `${Array.from(text).slice(0, 12).join("")}…` : text);

export interface Bar {
  id: string;
  label: string;
  count: number;
}

/**
 * A distribution as an accessible SVG bar chart (role="img" with the numbers
 * in its label) and the same numbers in a table below it.
 */
export async function BarChart({ bars, total, lang, caption }: { bars: Bar[]; total: number; lang: DisplayLanguage; caption: string }) {
  const t = await getTranslations("Results");
  const max = Math.max(1, ...bars.map((b) => b.count));
  const rowH = 34;
  const labelW = 220;
  const width = 640;
  const pct = (n: number) => (total > 0 ? Math.round((n / total) * 1000) / 10 : 0);
  const summary = bars.map((b) => `${toPlainText(b.label, lang)}: ${b.count}`).join("、");
  return (
    <figure className="chart" data-testid="chart">
      <svg viewBox={`0 0 ${width} ${bars.length * rowH + 8}`} role="img" aria-label={`${toPlainText(caption, lang)} — ${summary}`} className="chart-svg">
        {bars.map((b, i) => {
          const w = ((width - labelW - 90) * b.count) / max;
          return (
            <g key={b.id} transform={`translate(0 ${i * rowH + 4})`}>
              <text x={labelW - 8} y={rowH / 2 + 2} textAnchor="end" className="chart-label">
                {short(toPlainText(b.label, lang))}
              </text>
              <rect x={labelW} y={4} width={Math.max(w, b.count > 0 ? 2 : 0)} height={rowH - 12} rx={4} className="chart-bar" />
              <text x={labelW + w + 6} y={rowH / 2 + 2} className="chart-value">
                {b.count}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="table table-compact" data-testid="chart-table">
        <thead>
          <tr>
            <th scope="col">
              <RichText text={t("option")} />
            </th>
            <th scope="col">
              <RichText text={t("count")} />
            </th>
            <th scope="col">
              <RichText text={t("percent")} />
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.id} data-option={b.id} data-count={b.count}>
              <th scope="row">
                <RichText text={b.label} />
              </th>
              <td className="num">{b.count}</td>
              <td className="num">{pct(b.count)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
