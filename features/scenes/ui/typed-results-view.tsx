"use client";
import { useTranslations } from "next-intl";
import { histogramOf } from "@/features/scenes/shared/number-answer";
import { blankSummaries, type Counts } from "@/features/scenes/shared/typed-results";
import { RichTextClient } from "@/platform/ui/rich-text-client";

const pct = (n: number, total: number) => (total > 0 ? Math.round((n / total) * 100) : 0);

/** One bar: label, bar, count and share. */
function Bar({ label, n, total, testId }: { label: string; n: number; total: number; testId: string }) {
  return (
    <li className="result-row" data-testid={testId} data-count={n}>
      <span className="result-label">{label}</span>
      <span className="result-bar" aria-hidden="true">
        <span style={{ width: `${pct(n, total)}%` }} />
      </span>
      <span className="result-count">
        {n} ({pct(n, total)}%)
      </span>
    </li>
  );
}

/** Fill in the blanks: per blank, the share right and its most common wrong answers (features/scenes/shared/typed-results.ts). */
export function BlankResults({ blanks, counts, total }: { blanks: number; counts: Counts; total: number }) {
  const t = useTranslations("Play");
  return (
    <ul className="bare-list stack" data-testid="blank-results">
      {blankSummaries(counts, blanks).map((b, i) => (
        <li key={i} className="results-bars" data-testid="blank-result" data-right={b.right}>
          <RichTextClient text={t("blankRight", { n: i + 1, right: b.right, total })} />
          <span className="result-bar" aria-hidden="true">
            <span style={{ width: `${pct(b.right, total)}%` }} />
          </span>
          {b.wrong.length > 0 ? (
            <>
              <span className="muted small">
                <RichTextClient text={t("commonWrong")} />
              </span>
              <ul className="bare-list">
                {b.wrong.map(([answer, n]) => (
                  <Bar key={answer} label={answer || "—"} n={n} total={total} testId="blank-wrong" />
                ))}
              </ul>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** Number: the share right (when the scene has a correct value) and a histogram of the answers. */
export function NumberResults({ unit, counts, total }: { unit: string | null; counts: Counts; total: number }) {
  const t = useTranslations("Play");
  const right = counts.numberRight;
  const after = unit ? ` ${unit}` : "";
  return (
    <figure className="results-bars results-histogram" data-testid="number-results">
      {right ? (
        <p data-testid="number-right" data-right={right.right ?? 0}>
          <RichTextClient text={t("rightShare", { right: right.right ?? 0, total })} />
        </p>
      ) : null}
      <figcaption>
        <RichTextClient text={t("histogram")} />
      </figcaption>
      <ul className="bare-list stack">
        {histogramOf(counts.number ?? {}).map((b) => (
          <Bar
            key={b.from}
            label={b.from === b.to ? `${b.from}${after}` : `${round(b.from)} – ${round(b.to)}${after}`}
            n={b.n}
            total={total}
            testId="histogram-bar"
          />
        ))}
      </ul>
    </figure>
  );
}

const round = (n: number) => Number(n.toPrecision(4));
