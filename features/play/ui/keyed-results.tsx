"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { mostCommon } from "@/features/scenes/shared/matching";
import type { RenderedOption, RenderedScene } from "@/features/scenes/ui/types";
import { RichTextClient } from "@/platform/ui/rich-text-client";

type Counts = Record<string, Record<string, number>>;

/** One row: what the row is about, the answer given most often there, its bar and count; marked when it is the key's. */
function CommonRow({
  testId,
  head,
  common,
  n,
  total,
  correct,
}: {
  testId: string;
  head: ReactNode;
  common: RenderedOption | undefined;
  n: number;
  total: number;
  correct: boolean;
}) {
  const t = useTranslations("Scenes");
  const pct = total > 0 ? Math.round((n / total) * 100) : 0;
  return (
    <li
      className={correct ? "result-row result-correct" : "result-row"}
      data-testid={testId}
      data-common={common?.id ?? ""}
      data-count={n}
      data-correct={correct ? "true" : undefined}
    >
      <span className="result-label">
        {head} → {common ? common.label : "—"}
        {correct ? (
          <span className="badge badge-correct" data-testid="result-correct">
            <RichTextClient text={t("correctOption")} />
          </span>
        ) : null}
      </span>
      <span className="result-bar" aria-hidden="true">
        <span style={{ width: `${pct}%` }} />
      </span>
      <span className="result-count">
        {n} ({pct}%)
      </span>
    </li>
  );
}

/** The figure around the rows, captioned 「いちばん多い答え」. */
function CommonFigure({ children }: { children: ReactNode }) {
  const t = useTranslations("Play");
  return (
    <figure className="results-bars" data-testid="results-common">
      <figcaption>
        <RichTextClient text={t("mostCommon")} />
      </figcaption>
      <ul className="bare-list stack">{children}</ul>
    </figure>
  );
}

/** An ordering's answers on the projector: per position, the item put there most often (`counts.at<i>`). */
export function OrderingResults({
  scene,
  counts,
  total,
}: {
  scene: Extract<RenderedScene, { type: "ordering" }>;
  counts: Counts;
  total: number;
}) {
  const t = useTranslations("Scenes.ordering");
  return (
    <CommonFigure>
      {scene.items.map((_, i) => {
        const id = mostCommon(counts[`at${i}`], scene.items);
        return (
          <CommonRow
            key={i}
            testId="result-position"
            head={<RichTextClient text={t("position", { n: i + 1 })} />}
            common={scene.items.find((o) => o.id === id)}
            n={id ? (counts[`at${i}`]?.[id] ?? 0) : 0}
            total={total}
            correct={Boolean(id && scene.key?.[i] === id)}
          />
        );
      })}
    </CommonFigure>
  );
}

/** A matching's answers on the projector: per left item, the right item matched most often (`counts["pair:<left>"]`). */
export function MatchingResults({
  scene,
  counts,
  total,
}: {
  scene: Extract<RenderedScene, { type: "matching" }>;
  counts: Counts;
  total: number;
}) {
  return (
    <CommonFigure>
      {scene.left.map((l) => {
        const id = mostCommon(counts[`pair:${l.id}`], scene.right);
        return (
          <CommonRow
            key={l.id}
            testId="result-pair"
            head={l.label}
            common={scene.right.find((r) => r.id === id)}
            n={id ? (counts[`pair:${l.id}`]?.[id] ?? 0) : 0}
            total={total}
            correct={Boolean(id && scene.key?.[l.id] === id)}
          />
        );
      })}
    </CommonFigure>
  );
}
