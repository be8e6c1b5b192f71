"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { WORD_EMPTY, WORD_LIMITS, wordsToSend } from "@/features/scenes/shared/word-cloud";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import type { RenderedScene, SceneAnswer } from "./types";

const savedWords = (a: Record<string, unknown>) =>
  Array.isArray(a.words) ? a.words.filter((w): w is string => typeof w === "string") : [];

/**
 * A word cloud's answer: a box per word (up to the scene's `maxWords`), each at most WORD_LIMITS.length characters,
 * the limits stated above them. The filled boxes are sent (features/scenes/shared/word-cloud.ts `wordsToSend`);
 * boxes all emptied say so and send nothing.
 */
export function WordsAnswer({
  scene,
  a,
  readOnly,
  onAnswer,
}: {
  scene: Extract<RenderedScene, { type: "word_cloud" }>;
  a: Record<string, unknown>;
  readOnly?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  const t = useTranslations("Scenes");
  const plain = usePlainText();
  const saved = savedWords(a);
  const [typed, setTyped] = useState(() => Array.from({ length: scene.maxWords }, (_, i) => saved[i] ?? ""));
  const [touched, setTouched] = useState(false);
  // words replaced from elsewhere (another screen's save) show; the student's own spacing of them stays
  const [seen, setSeen] = useState(saved.join("\n"));
  if (saved.join("\n") !== seen) {
    setSeen(saved.join("\n"));
    if (saved.length > 0 && (wordsToSend(typed) ?? []).join("\n") !== saved.join("\n"))
      setTyped(Array.from({ length: scene.maxWords }, (_, i) => saved[i] ?? ""));
  }
  // as many boxes as the scene takes now (the editor's preview follows a changed maxWords)
  const boxes = Array.from({ length: scene.maxWords }, (_, i) => typed[i] ?? "");
  const set = (i: number, value: string) => {
    const next = boxes.map((v, j) => (j === i ? value : v));
    setTyped(next);
    setTouched(true);
    const words = wordsToSend(next);
    if (words) onAnswer({ words });
  };
  const empty = touched && wordsToSend(boxes) === null;
  return (
    <div className="field words-answer" data-testid="words-answer">
      <p className="muted" data-testid="words-limit">
        <RichTextClient text={t("wordsLimit", { max: scene.maxWords, length: WORD_LIMITS.length })} />
      </p>
      <div className="words-inputs">
        {boxes.map((value, i) => (
          <input
            key={i}
            type="text"
            className="word-input"
            data-testid="word-input"
            aria-label={plain(t("wordLabel", { n: i + 1 }))}
            value={value}
            readOnly={readOnly}
            maxLength={WORD_LIMITS.length}
            autoComplete="off"
            aria-invalid={(empty && i === 0) || undefined}
            onChange={(e) => set(i, e.target.value)}
          />
        ))}
      </div>
      {empty ? (
        <p className="alert alert-error" role="alert" data-testid="words-problem">
          <span>
            <RichTextClient text={t(WORD_EMPTY)} />
          </span>
        </p>
      ) : null}
    </div>
  );
}
