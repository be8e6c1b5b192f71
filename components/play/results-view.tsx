"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import type { SceneResults } from "@/lib/live/state";
import type { RenderedOption, RenderedScene } from "@/components/scenes/types";
import { RichTextClient } from "@/components/ui/rich-text-client";

function Bars({ label, options, counts, names, total }: {
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
            <li key={o.id} className="result-row" data-option={o.id} data-count={n}>
              <span className="result-label">{o.label}</span>
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

/** The class's answers to the current scene, for projection: bars per option (names only when chosen), texts. */
export function ResultsView({ scene, results }: { scene: RenderedScene; results: SceneResults }) {
  const t = useTranslations("Play");
  const get = (key: string) => ({ counts: results.counts[key] ?? {}, names: results.names?.[key] ?? null });
  const scale: RenderedOption[] = [1, 2, 3, 4, 5].map((v) => ({ id: String(v), label: String(v) }));
  return (
    <section className="card stack results" aria-label={t("results")} data-testid="results" data-total={results.total}>
      <h2>
        <RichTextClient text={t("resultsTitle", { count: results.total })} />
      </h2>
      {scene.type === "single_choice" || scene.type === "multiple_choice" ? <Bars label={null} options={scene.options} {...get("choice")} total={results.total} /> : null}
      {scene.type === "scale" ? <Bars label={null} options={scale} {...get("value")} total={results.total} /> : null}
      {scene.type === "two_step" ? (
        <>
          <Bars label={scene.firstPrompt} options={scene.firstOptions} {...get("first")} total={results.total} />
          <Bars
            label={scene.secondPrompt}
            options={Object.values(scene.secondOptions).flat().filter((o, i, all) => all.findIndex((x) => x.id === o.id) === i)}
            {...get("second")}
            total={results.total}
          />
        </>
      ) : null}
      {results.texts.length > 0 ? (
        <ul className="stack bare-list result-texts" data-testid="result-texts">
          {results.texts.map((x, i) => (
            <li key={i} className="card">
              <p>{x.text}</p>
              {x.name ? <p className="muted">{x.name}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
