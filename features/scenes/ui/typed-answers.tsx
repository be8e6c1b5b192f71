"use client";
import { useTranslations } from "next-intl";
import { Fragment, useState } from "react";
import { NUMBER_LIMITS, parseNumberInput } from "@/features/scenes/shared/number-answer";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import type { RenderedScene, SceneAnswer } from "./types";

type Common = { readOnly?: boolean; projected?: boolean; onAnswer: (answer: SceneAnswer) => void };

/**
 * A fill-in-the-blanks text with a box per blank (keyboard and touch: ordinary text inputs, in reading order);
 * on the projector empty boxes; in staff previews and once feedback is allowed each blank's accepted answers after it.
 */
export function FillBlanksAnswer({
  scene,
  a,
  readOnly,
  projected,
  onAnswer,
}: Common & { scene: Extract<RenderedScene, { type: "fill_blanks" }>; a: Record<string, unknown> }) {
  const t = useTranslations("Scenes");
  const plain = usePlainText();
  const count = scene.parts.length - 1;
  const typed = Array.from({ length: count }, (_, i) =>
    Array.isArray(a.blanks) && typeof a.blanks[i] === "string" ? (a.blanks[i] as string) : "",
  );
  const set = (i: number, value: string) => onAnswer({ blanks: typed.map((v, j) => (j === i ? value : v)) });
  return (
    <div className="scene-body blanks-text" data-testid="blanks-text">
      {scene.parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < count ? (
            projected ? (
              <span className="blank-box" data-testid="blank-box" aria-hidden="true" />
            ) : (
              <span className="blank">
                <input
                  type="text"
                  className="blank-input"
                  data-testid="blank-input"
                  aria-label={plain(t("blankLabel", { n: i + 1 }))}
                  value={typed[i]}
                  readOnly={readOnly}
                  maxLength={100}
                  autoComplete="off"
                  onChange={(e) => set(i, e.target.value)}
                />
                {scene.answers?.[i] ? (
                  <span className="badge badge-correct" data-testid="blank-answers">
                    <RichTextClient text={t("blankAnswers", { answers: scene.answers[i]!.join(" / ") })} />
                  </span>
                ) : null}
              </span>
            )
          ) : null}
        </Fragment>
      ))}
    </div>
  );
}

/**
 * A number typed in a text box (full-width digits, `,` and the minus signs of number-answer.ts accepted); what is
 * not a number is refused with a message and not sent. The unit after the box; the key (with its tolerance and unit)
 * in staff previews and once feedback is allowed.
 */
export function NumberAnswer({
  scene,
  a,
  readOnly,
  projected,
  onAnswer,
}: Common & { scene: Extract<RenderedScene, { type: "number" }>; a: Record<string, unknown> }) {
  const t = useTranslations("Scenes");
  const saved = typeof a.number === "number" ? a.number : null;
  const [typed, setTyped] = useState(saved === null ? "" : String(saved));
  // an answer replaced from elsewhere (another screen's save) shows; the student's own spelling of it stays
  const [seen, setSeen] = useState(saved);
  if (saved !== seen) {
    setSeen(saved);
    if (saved !== null && parseNumberInput(typed) !== saved) setTyped(String(saved));
  }
  const invalid = typed.trim() !== "" && parseNumberInput(typed) === null;
  if (projected) return scene.unit ? <p className="muted">{scene.unit}</p> : null;
  return (
    <div className="field">
      <label className="row number-answer">
        <span className="visually-hidden">
          <RichTextClient text={t("numberLabel")} />
        </span>
        <input
          type="text"
          inputMode="decimal"
          className="number-input"
          data-testid="number-input"
          value={typed}
          readOnly={readOnly}
          maxLength={NUMBER_LIMITS.inputLength}
          autoComplete="off"
          aria-invalid={invalid || undefined}
          onChange={(e) => {
            setTyped(e.target.value);
            const n = parseNumberInput(e.target.value);
            if (n !== null) onAnswer({ number: n });
          }}
        />
        {scene.unit ? <span data-testid="number-unit">{scene.unit}</span> : null}
        {scene.correct ? (
          <span className="badge badge-correct" data-testid="number-key">
            <RichTextClient
              text={t("blankAnswers", {
                answers: `${scene.correct.value}${scene.correct.tolerance ? ` ± ${scene.correct.tolerance}` : ""}${scene.unit ? ` ${scene.unit}` : ""}`,
              })}
            />
          </span>
        ) : null}
      </label>
      {invalid ? (
        <p className="alert alert-error" role="alert" data-testid="number-problem">
          <span>
            <RichTextClient text={t("notANumber")} />
          </span>
        </p>
      ) : null}
    </div>
  );
}
