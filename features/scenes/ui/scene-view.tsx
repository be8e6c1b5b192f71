"use client";
import { useTranslations } from "next-intl";
import { lazy, type ReactNode, Suspense, useId } from "react";
import type { DrawingAnswer } from "@/features/scenes/shared/drawing-limits";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { MatchingAnswer } from "./matching-answer";
import { OrderingAnswer } from "./ordering-answer";
import { SceneImage } from "./scene-image";
import { FillBlanksAnswer, NumberAnswer } from "./typed-answers";
import { WordsAnswer } from "./words-answer";
import type { RenderedOption, RenderedScene, SceneAnswer } from "./types";

type Props = {
  scene: RenderedScene;
  answer: SceneAnswer | null;
  onAnswer: (answer: SceneAnswer) => void;
  /** Message key under Scenes shown for this scene, once the student has tried to send or move on. */
  problem?: SceneProblem | null;
  readOnly?: boolean;
  /** A read-only drawing scene's answer, drawn on the server (features/scenes/ui/drawing-svg.tsx). */
  drawing?: ReactNode;
  /** Shown to the class (the projector): the question and its choices, no box to write in. */
  projected?: boolean;
};

function LoadingPad() {
  const t = useTranslations("Scenes.drawing");
  return (
    <p className="muted drawing-loading" data-testid="drawing-loading">
      <RichTextClient text={t("loading")} />
    </p>
  );
}

/**
 * The drawing canvas, loaded only when a drawing scene is shown (the student pages' bytes:
 * docs/benchmarks.md). React's own lazy rather than next/dynamic, whose loader would add ~2 KB
 * to every page that shows scenes.
 */
const DrawingPad = lazy(() => import("@/features/scenes/ui/drawing-pad"));

/** The second-step options after a first choice. */
export function secondOptionsOf(scene: Extract<RenderedScene, { type: "two_step" }>, first: string | undefined) {
  return (first && scene.secondOptions[first]) || scene.secondOptions["*"] || [];
}

/** A message key under Scenes saying what an answer still lacks: a two-step choice, or its reason. */
export type SceneProblem = "requiredInput" | "reasonRequired";

/**
 * What stops a student from sending a two-step answer ('required input', docs/requirements.md §5): a choice not
 * made yet, or the reason left empty (the message names the reason).
 */
export function sceneProblem(scene: RenderedScene, answer: SceneAnswer | null): SceneProblem | null {
  if (scene.type !== "two_step") return null;
  const a = answer as { first?: string; second?: string; reason?: string } | null;
  if (!a?.first || !a.second) return "requiredInput";
  return a.reason?.trim() ? null : "reasonRequired";
}

/**
 * When an edit is saved: a choice at once, typing after a pause, and an
 * answer that is not complete yet (a two-step answer without its reason, too
 * few choices, a matching with a left item unmatched) not at all until it is.
 */
export function whenToSave(scene: RenderedScene, answer: SceneAnswer): "now" | "later" | "never" {
  if (scene.type === "two_step") return sceneProblem(scene, answer) ? "never" : "later";
  if (scene.type === "multiple_choice" && "choices" in answer)
    return answer.choices.length >= scene.min && answer.choices.length <= scene.max ? "now" : "never";
  if (scene.type === "matching" && "pairs" in answer)
    return scene.left.every((l) => answer.pairs[l.id]) ? "now" : "never";
  return "text" in answer || "strokes" in answer || "blanks" in answer || "number" in answer || "words" in answer
    ? "later"
    : "now";
}

function Choices({
  name,
  options,
  type,
  checked,
  onToggle,
  disabled,
  labelledBy,
}: {
  name: string;
  labelledBy?: string;
  options: RenderedOption[];
  type: "radio" | "checkbox";
  checked: (id: string) => boolean;
  onToggle: (id: string) => void;
  disabled?: boolean;
}) {
  const t = useTranslations("Scenes");
  return (
    <div className="choices" role={type === "radio" ? "radiogroup" : "group"} aria-labelledby={labelledBy}>
      {options.map((o) => (
        <label key={o.id} className="choice" data-option={o.id} data-correct={o.correct ? "true" : undefined}>
          <input
            type={type}
            name={name}
            value={o.id}
            aria-label={o.name}
            checked={checked(o.id)}
            disabled={disabled}
            onChange={() => onToggle(o.id)}
          />
          <span>{o.label}</span>
          {o.image ? <SceneImage image={o.image} className="option-image" /> : null}
          {o.correct ? (
            <span className="badge badge-correct" data-testid="correct-mark">
              <RichTextClient text={t("correctOption")} />
            </span>
          ) : null}
        </label>
      ))}
    </div>
  );
}

/** One scene as a student sees and answers it (shared by preview, solo, live session and response screens). */
/** Whether the scene's image is shown under a drawing (the canvas, or the answer's picture) instead of above. */
const drawnOn = (scene: RenderedScene, readOnly: boolean | undefined, drawing: ReactNode) =>
  scene.type === "drawing" && scene.onImage && (!readOnly || Boolean(drawing));

export function SceneView({ scene, answer, onAnswer, problem, readOnly, drawing, projected }: Props) {
  const t = useTranslations("Scenes");
  const uid = useId();
  const a = (answer ?? {}) as Record<string, unknown>;
  return (
    <section className="scene card" data-scene-type={scene.type} data-testid="scene">
      {scene.image && !drawnOn(scene, readOnly, drawing) ? <SceneImage image={scene.image} /> : null}
      <h2 className="scene-prompt" id={`${uid}-prompt`}>
        {scene.prompt}
      </h2>
      {scene.type === "info" ? scene.body ? <div className="scene-body">{scene.body}</div> : null : null}
      {scene.type === "drawing" ? (
        <>
          {scene.instructions ? <div className="scene-body">{scene.instructions}</div> : null}
          {readOnly ? (
            (drawing ?? null)
          ) : (
            <Suspense fallback={<LoadingPad />}>
              <DrawingPad
                answer={answer && "strokes" in answer ? (answer as DrawingAnswer) : null}
                onAnswer={onAnswer}
                background={scene.onImage ? scene.image : undefined}
              />
            </Suspense>
          )}
        </>
      ) : null}
      {scene.type === "single_choice" ? (
        <Choices
          name={uid}
          type="radio"
          options={scene.options}
          disabled={readOnly}
          labelledBy={`${uid}-prompt`}
          checked={(id) => a.choice === id}
          onToggle={(id) => onAnswer({ choice: id })}
        />
      ) : null}
      {scene.type === "multiple_choice" ? (
        <Choices
          name={uid}
          type="checkbox"
          options={scene.options}
          disabled={readOnly}
          labelledBy={`${uid}-prompt`}
          checked={(id) => Array.isArray(a.choices) && a.choices.includes(id)}
          onToggle={(id) => {
            const current = Array.isArray(a.choices) ? (a.choices as string[]) : [];
            onAnswer({ choices: current.includes(id) ? current.filter((c) => c !== id) : [...current, id] });
          }}
        />
      ) : null}
      {scene.type === "free_text" && !projected ? (
        <FreeTextAnswer scene={scene} a={a} readOnly={readOnly} onAnswer={onAnswer} />
      ) : null}
      {scene.type === "scale" ? (
        <ScaleAnswer scene={scene} a={a} uid={uid} readOnly={readOnly} onAnswer={onAnswer} />
      ) : null}
      {scene.type === "two_step" ? (
        <TwoStepAnswer scene={scene} a={a} uid={uid} readOnly={readOnly} onAnswer={onAnswer} problem={problem} />
      ) : null}
      <LaterTypeAnswer scene={scene} a={a} uid={uid} readOnly={readOnly} projected={projected} onAnswer={onAnswer} />
      {problem ? (
        <p className="alert alert-error" role="alert" data-testid="scene-problem">
          <span>
            <RichTextClient text={t(problem)} />
          </span>
        </p>
      ) : null}
    </section>
  );
}

/** The answer of an ordering, matching, fill-in-the-blanks, number or word cloud scene (nothing for the other types). */
function LaterTypeAnswer({
  scene,
  a,
  uid,
  readOnly,
  projected,
  onAnswer,
}: {
  scene: RenderedScene;
  a: Record<string, unknown>;
  uid: string;
  readOnly?: boolean;
  projected?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  switch (scene.type) {
    case "ordering":
      return <OrderingAnswer scene={scene} a={a} uid={uid} readOnly={readOnly || projected} onAnswer={onAnswer} />;
    case "matching":
      return <MatchingAnswer scene={scene} a={a} uid={uid} readOnly={readOnly || projected} onAnswer={onAnswer} />;
    case "fill_blanks":
      return <FillBlanksAnswer scene={scene} a={a} readOnly={readOnly} projected={projected} onAnswer={onAnswer} />;
    case "number":
      return <NumberAnswer scene={scene} a={a} readOnly={readOnly} projected={projected} onAnswer={onAnswer} />;
    case "word_cloud":
      return projected ? null : <WordsAnswer scene={scene} a={a} readOnly={readOnly} onAnswer={onAnswer} />;
    default:
      return null;
  }
}

/** A free-text answer (with the characters used, when limited). */
function FreeTextAnswer({
  scene,
  a,
  readOnly,
  onAnswer,
}: {
  scene: Extract<RenderedScene, { type: "free_text" }>;
  a: Record<string, unknown>;
  readOnly?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  const t = useTranslations("Scenes");
  return (
    <label className="field">
      <span className="visually-hidden">
        <RichTextClient text={t("yourAnswer")} />
      </span>
      <textarea
        rows={5}
        className="answer-text"
        value={typeof a.text === "string" ? a.text : ""}
        readOnly={readOnly}
        maxLength={scene.maxLength ?? undefined}
        placeholder={scene.placeholder ?? undefined}
        onChange={(e) => onAnswer({ text: e.target.value })}
      />
      {scene.maxLength ? (
        <span className="muted small" aria-live="polite">
          {typeof a.text === "string" ? a.text.length : 0}/{scene.maxLength}
        </span>
      ) : null}
    </label>
  );
}

/** A 1–5 scale between its two labels. */
function ScaleAnswer({
  scene,
  a,
  uid,
  readOnly,
  onAnswer,
}: {
  scene: Extract<RenderedScene, { type: "scale" }>;
  a: Record<string, unknown>;
  uid: string;
  readOnly?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  return (
    <div className="scale">
      <span className="scale-end">{scene.minLabel}</span>
      <div className="scale-points" role="radiogroup" aria-labelledby={`${uid}-prompt`}>
        {[1, 2, 3, 4, 5].map((v) => (
          <label key={v} className="scale-point">
            <input
              type="radio"
              name={uid}
              value={v}
              checked={a.value === v}
              disabled={readOnly}
              onChange={() => onAnswer({ value: v })}
            />
            <span>{v}</span>
          </label>
        ))}
      </div>
      <span className="scale-end">{scene.maxLabel}</span>
    </div>
  );
}

/** A two-step answer: the first choice, then the second step for it, then the reason. */
function TwoStepAnswer({
  scene,
  a,
  uid,
  problem,
  readOnly,
  onAnswer,
}: {
  scene: Extract<RenderedScene, { type: "two_step" }>;
  a: Record<string, unknown>;
  uid: string;
  problem?: SceneProblem | null;
  readOnly?: boolean;
  onAnswer: (answer: SceneAnswer) => void;
}) {
  return (
    <div className="stack">
      <fieldset className="step">
        <legend>{scene.firstPrompt}</legend>
        <Choices
          name={`${uid}-1`}
          type="radio"
          options={scene.firstOptions}
          disabled={readOnly}
          checked={(id) => a.first === id}
          onToggle={(id) => onAnswer({ first: id, second: "", reason: typeof a.reason === "string" ? a.reason : "" })}
        />
      </fieldset>
      {typeof a.first === "string" && a.first ? (
        <fieldset className="step" data-testid="second-step">
          <legend>{scene.secondPrompt}</legend>
          <Choices
            name={`${uid}-2`}
            type="radio"
            options={secondOptionsOf(scene, a.first)}
            disabled={readOnly}
            checked={(id) => a.second === id}
            onToggle={(id) =>
              onAnswer({
                first: a.first as string,
                second: id,
                reason: typeof a.reason === "string" ? a.reason : "",
              })
            }
          />
        </fieldset>
      ) : null}
      {typeof a.second === "string" && a.second ? (
        <label className="field step" data-testid="reason">
          <span className="field-label">{scene.reasonPrompt}</span>
          <textarea
            rows={4}
            className="answer-text"
            value={typeof a.reason === "string" ? a.reason : ""}
            readOnly={readOnly}
            aria-invalid={problem === "reasonRequired" || undefined}
            required
            onChange={(e) => onAnswer({ first: a.first as string, second: a.second as string, reason: e.target.value })}
          />
        </label>
      ) : null}
    </div>
  );
}
