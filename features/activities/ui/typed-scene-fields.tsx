"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { NUMBER_LIMITS } from "@/features/scenes/shared/number-answer";
import { WORD_LIMITS } from "@/features/scenes/shared/word-cloud";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import type { ErrorKey, OnChange, Path } from "./scene-content";
import { NumberField, TextField } from "./scene-fields";

type Fields = (path: Path) => { path: Path; value: unknown; errors: Record<string, ErrorKey>; onChange: OnChange };

/** The fields of a fill-in-the-blanks, number or word cloud scene. */
export function TypedSceneFields({
  type,
  f,
  prompt,
}: {
  type: "fill_blanks" | "number" | "word_cloud";
  f: Fields;
  prompt: ReactNode;
}) {
  if (type === "word_cloud") return <WordCloudFields f={f} prompt={prompt} />;
  return type === "fill_blanks" ? <FillBlanksFields f={f} prompt={prompt} /> : <NumberFields f={f} prompt={prompt} />;
}

/** Word cloud: how many words a student may send (1–3; empty: three), the limit per word stated. */
function WordCloudFields({ f, prompt }: { f: Fields; prompt: ReactNode }) {
  const t = useTranslations("SceneEditor.fields");
  return (
    <>
      {prompt}
      <p className="muted" data-testid="words-hint">
        <RichTextClient text={t("wordsHint", { length: WORD_LIMITS.length })} />
      </p>
      <NumberField label={t("maxWords")} min={1} max={WORD_LIMITS.words} {...f(["maxWords"])} />
    </>
  );
}

/** Fill in the blanks: the text with its blanks (features/scenes/shared/fill-blanks.ts), how to write them above it. */
function FillBlanksFields({ f, prompt }: { f: Fields; prompt: ReactNode }) {
  const t = useTranslations("SceneEditor.fields");
  return (
    <>
      {prompt}
      <p className="muted" data-testid="blanks-hint">
        <RichTextClient text={t("blanksHint")} />
      </p>
      <TextField label={t("blanksText")} multiline {...f(["text"])} />
    </>
  );
}

/** Number: the unit after the input, the correct value and its tolerance (both optional: no value, no marking). */
function NumberFields({ f, prompt }: { f: Fields; prompt: ReactNode }) {
  const t = useTranslations("SceneEditor.fields");
  return (
    <>
      {prompt}
      <TextField label={t("unit")} optional {...f(["unit"])} />
      <div className="row">
        <NumberField
          label={t("correctNumber")}
          decimal
          min={-NUMBER_LIMITS.abs}
          max={NUMBER_LIMITS.abs}
          {...f(["correct"])}
        />
        <NumberField label={t("tolerance")} decimal min={0} max={NUMBER_LIMITS.abs} {...f(["tolerance"])} />
      </div>
    </>
  );
}
