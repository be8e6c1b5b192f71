"use client";
import { useTranslations } from "next-intl";
import { SceneView } from "@/components/scenes/scene-view";
import type { RenderedScene, SceneAnswer } from "@/components/scenes/types";
import type { SceneFeedback } from "@/lib/scenes/key";
import { RichTextClient } from "@/components/ui/rich-text-client";

/** One respondent's answers, scene by scene, read-only (an unanswered scene says so), with verdicts when given. */
export function AnswerReview({ scenes, answers, meta, feedback }: {
  scenes: RenderedScene[];
  answers: Record<string, SceneAnswer>;
  meta?: Record<string, string>;
  feedback?: Record<string, SceneFeedback>;
}) {
  const t = useTranslations("Play");
  return (
    <ol className="stack bare-list answer-review" data-testid="answer-review">
      {scenes.map((scene, i) => (
        <li key={scene.id} className="stack" data-scene-id={scene.id} data-answered={answers[scene.id] ? "true" : "false"}>
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
            <p className={`verdict verdict-${feedback[scene.id]!.verdict}`} data-testid="verdict" data-verdict={feedback[scene.id]!.verdict}>
              <RichTextClient text={t(feedback[scene.id]!.verdict === "correct" ? "verdictCorrect" : "verdictIncorrect")} />
            </p>
          ) : null}
          <SceneView scene={scene} answer={answers[scene.id] ?? null} onAnswer={() => undefined} readOnly />
        </li>
      ))}
    </ol>
  );
}
