"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { SceneView, type SceneProblem, sceneProblem } from "./scene-view";
import type { RenderedScene, SceneAnswer } from "./types";

/** Walks every scene as a student would; answers stay in this page (preview never writes responses). */
export function PreviewPlayer({ scenes, backHref }: { scenes: RenderedScene[]; backHref: string }) {
  const t = useTranslations("Scenes");
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, SceneAnswer>>({});
  const [problem, setProblem] = useState<SceneProblem | null>(null);
  const [done, setDone] = useState(false);
  const scene = scenes[index];
  if (!scene) return null;
  const next = () => {
    const p = sceneProblem(scene, answers[scene.id] ?? null);
    setProblem(p);
    if (p) return;
    if (index + 1 < scenes.length) setIndex(index + 1);
    else setDone(true);
  };
  if (done) {
    return (
      <div className="stack card" data-testid="preview-done">
        <h2>
          <RichTextClient text={t("previewDone")} />
        </h2>
        <div className="row">
          <button
            type="button"
            className="button"
            onClick={() => {
              setDone(false);
              setIndex(0);
              setAnswers({});
            }}
          >
            <RichTextClient text={t("again")} />
          </button>
          <Link href={backHref} className="button button-primary">
            <RichTextClient text={t("backToList")} />
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="stack">
      <p className="progress" data-testid="progress">
        <RichTextClient text={t("progress", { current: index + 1, total: scenes.length })} />
      </p>
      <progress max={scenes.length} value={index + 1} aria-hidden="true" />
      <SceneView
        key={scene.id}
        scene={scene}
        answer={answers[scene.id] ?? null}
        problem={problem}
        onAnswer={(a) => {
          setAnswers((all) => ({ ...all, [scene.id]: a }));
          setProblem(null);
        }}
      />
      <div className="row scene-nav">
        <button
          type="button"
          className="button"
          disabled={index === 0}
          onClick={() => {
            setProblem(null);
            setIndex(index - 1);
          }}
          data-testid="previous"
        >
          <RichTextClient text={t("previous")} />
        </button>
        <button type="button" className="button button-primary" onClick={next} data-testid="next">
          <RichTextClient text={index + 1 < scenes.length ? t("next") : t("finish")} />
        </button>
      </div>
    </div>
  );
}
