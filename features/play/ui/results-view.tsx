"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { SceneResults } from "@/features/play/server/state-queries";
import type { RenderedOption, RenderedScene } from "@/features/scenes/ui/types";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { MatchingResults, OrderingResults } from "./keyed-results";
import { BlankResults, NumberResults } from "@/features/scenes/ui/typed-results-view";
import { type ShownWord, WordCloudResults } from "@/features/scenes/ui/word-cloud-view";

function Bars({
  label,
  options,
  counts,
  names,
  total,
}: {
  label: ReactNode;
  options: RenderedOption[];
  counts: Record<string, number>;
  names: Record<string, string[]> | null;
  total: number;
}) {
  return (
    <figure className="results-bars" data-testid="results-bars">
      {label ? <figcaption>{label}</figcaption> : null}
      <ul className="bare-list stack">
        {options.map((o) => {
          const n = counts[o.id] ?? 0;
          const pct = total > 0 ? Math.round((n / total) * 100) : 0;
          return (
            <li
              key={o.id}
              className={o.correct ? "result-row result-correct" : "result-row"}
              data-option={o.id}
              data-count={n}
              data-correct={o.correct ? "true" : undefined}
            >
              <span className="result-label">
                {o.label}
                {o.correct ? <CorrectMark /> : null}
              </span>
              <span className="result-bar" aria-hidden="true">
                <span style={{ width: `${pct}%` }} />
              </span>
              <span className="result-count">
                {n} ({pct}%)
              </span>
              {names?.[o.id]?.length ? <span className="result-names muted">{names[o.id]!.join("、")}</span> : null}
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

/** A two-step scene's second steps, each once (the same one may follow several first steps). */
export function uniqueSeconds(scene: Extract<RenderedScene, { type: "two_step" }>): RenderedOption[] {
  return Object.values(scene.secondOptions)
    .flat()
    .filter((o, i, all) => all.findIndex((x) => x.id === o.id) === i);
}

/** The mark of the correct option once the teacher has shown the answer. */
function CorrectMark() {
  const t = useTranslations("Scenes");
  return (
    <span className="badge badge-correct" data-testid="result-correct">
      <RichTextClient text={t("correctOption")} />
    </span>
  );
}

/** A scale's point as its bar names it: the two ends with their labels ("1 まったくない"), the rest by number. */
function scalePoint(scene: RenderedScene, value: number): ReactNode {
  const end = scene.type !== "scale" ? null : value === 1 ? scene.minLabel : value === 5 ? scene.maxLabel : null;
  return end ? (
    <>
      {value} <span className="scale-end">{end}</span>
    </>
  ) : (
    String(value)
  );
}

/** Results as a screen shows them: the projector's carry no response ids (features/play/ui/projector-view.tsx). */
export type ShownResults = Omit<SceneResults, "texts" | "cross" | "words"> & {
  texts: { id?: string; text: string; name: string | null; starred: boolean }[];
  words?: ShownWord[];
};

/**
 * The class's answers to the current scene, for projection: bars per option (names only when chosen), texts
 * by arrival, a word cloud's words. `onStar` (the guide screen): a star per text, for the projector's "starred only";
 * `onHideWord` (the guide screen): a word cloud's 「隠す」 per word. `empty`: shown
 * instead while nobody has answered; `children`: more of the results, between the charts and the texts (the
 * console's cross-table).
 */
export function ResultsView({
  scene,
  results,
  onStar,
  onHideWord,
  empty,
  children,
}: {
  scene: RenderedScene;
  results: ShownResults;
  onStar?: (id: string, starred: boolean) => void;
  onHideWord?: (key: string, hidden: boolean) => void;
  empty?: ReactNode;
  children?: ReactNode;
}) {
  const t = useTranslations("Play");
  return (
    <section className="card stack results" aria-label={t("results")} data-testid="results" data-total={results.total}>
      <h2>
        <RichTextClient text={t("resultsTitle", { count: results.total })} />
      </h2>
      {empty && results.total === 0 ? (
        empty
      ) : (
        <ResultsBody scene={scene} results={results} onStar={onStar} onHideWord={onHideWord}>
          {children}
        </ResultsBody>
      )}
    </section>
  );
}

/** The charts of the scene's options (or steps), `children`, then the texts, starrable on the guide screen. */
function ResultsBody({
  scene,
  results,
  onStar,
  onHideWord,
  children,
}: {
  scene: RenderedScene;
  results: ShownResults;
  onStar?: (id: string, starred: boolean) => void;
  onHideWord?: (key: string, hidden: boolean) => void;
  children?: ReactNode;
}) {
  const tp = useTranslations("Projector");
  const get = (key: string) => ({ counts: results.counts[key] ?? {}, names: results.names?.[key] ?? null });
  const scale: RenderedOption[] = [1, 2, 3, 4, 5].map((v) => ({ id: String(v), label: scalePoint(scene, v) }));
  return (
    <>
      {scene.type === "single_choice" || scene.type === "multiple_choice" ? (
        <Bars label={null} options={scene.options} {...get("choice")} total={results.total} />
      ) : null}
      {scene.type === "scale" ? <Bars label={null} options={scale} {...get("value")} total={results.total} /> : null}
      {scene.type === "two_step" ? (
        <>
          <Bars label={scene.firstPrompt} options={scene.firstOptions} {...get("first")} total={results.total} />
          <Bars label={scene.secondPrompt} options={uniqueSeconds(scene)} {...get("second")} total={results.total} />
        </>
      ) : null}
      {scene.type === "ordering" ? (
        <OrderingResults scene={scene} counts={results.counts} total={results.total} />
      ) : null}
      {scene.type === "matching" ? (
        <MatchingResults scene={scene} counts={results.counts} total={results.total} />
      ) : null}
      {scene.type === "fill_blanks" ? (
        <BlankResults blanks={scene.parts.length - 1} counts={results.counts} total={results.total} />
      ) : null}
      {scene.type === "number" ? (
        <NumberResults unit={scene.unit} counts={results.counts} total={results.total} />
      ) : null}
      {scene.type === "word_cloud" && results.words ? (
        <WordCloudResults words={results.words} onHide={onHideWord} />
      ) : null}
      {children}
      {results.texts.length > 0 ? (
        <ul className="stack bare-list result-texts" data-testid="result-texts">
          {results.texts.map((x, i) => (
            <li key={x.id ?? i} className="card result-text" data-testid="result-text" data-starred={x.starred}>
              <p data-testid="result-text-body">{x.text}</p>
              {x.name ? (
                <p className="muted" data-testid="result-name">
                  {x.name}
                </p>
              ) : null}
              {onStar && x.id ? (
                <button
                  type="button"
                  className="button button-small"
                  aria-pressed={x.starred}
                  data-testid="star-answer"
                  onClick={() => onStar(x.id!, !x.starred)}
                >
                  <span aria-hidden="true">{x.starred ? "★ " : "☆ "}</span>
                  <RichTextClient text={x.starred ? tp("unstar") : tp("star")} />
                </button>
              ) : x.starred ? (
                <span aria-hidden="true" className="result-star">
                  ★
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
