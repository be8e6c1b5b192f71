"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { SceneView } from "@/features/scenes/ui/scene-view";
import type { RenderedScene, SceneAnswer } from "@/features/scenes/ui/types";
import type { SceneFeedback } from "@/features/scenes/shared/key";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** One respondent's answers, scene by scene, read-only (an unanswered scene says so), with verdicts when given. */
export function AnswerReview({
  scenes,
  answers,
  meta,
  drawings,
  feedback,
  extra,
}: {
  scenes: RenderedScene[];
  answers: Record<string, SceneAnswer>;
  meta?: Record<string, string>;
  /** Drawing answers drawn on the server, by scene id (features/scenes/ui/answer-drawings.tsx). */
  drawings?: Record<string, ReactNode>;
  feedback?: Record<string, SceneFeedback>;
  /** Shown under each scene's answer, by scene id (teacher marks and comments: features/results/ui/). */
  extra?: Record<string, ReactNode>;
}) {
  const t = useTranslations("Play");
  return (
    <ol className="stack bare-list answer-review" data-testid="answer-review">
      {scenes.map((scene, i) => (
        <li
          key={scene.id}
          className="stack"
          data-scene-id={scene.id}
          data-answered={answers[scene.id] ? "true" : "false"}
        >
          <p className="muted">
            <RichTextClient text={t("sceneNumber", { number: i + 1 })} />
            {scene.type !== "info" && !answers[scene.id] ? (
              <>
                {" "}
                <RichTextClient text={t("notAnswered")} />
              </>
            ) : null}
            {meta?.[scene.id] ? (
              <>
                {" · "}
                <RichTextClient text={meta[scene.id]!} />
              </>
            ) : null}
          </p>
          {feedback?.[scene.id] ? (
            <p
              className={`verdict verdict-${feedback[scene.id]!.verdict}`}
              data-testid="verdict"
              data-verdict={feedback[scene.id]!.verdict}
            >
              <RichTextClient
                text={t(feedback[scene.id]!.verdict === "correct" ? "verdictCorrect" : "verdictIncorrect")}
              />
            </p>
          ) : null}
          <SceneView
            scene={scene}
            answer={answers[scene.id] ?? null}
            onAnswer={() => undefined}
            readOnly
            drawing={drawings?.[scene.id]}
          />
          {extra?.[scene.id] ?? null}
        </li>
      ))}
    </ol>
  );
}
