"use client";
import "./editor.css";
import { useLocale, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { DISPLAY_LANGUAGES, type DisplayLanguage, languageOfLocaleTag } from "@/platform/i18n/languages";
import { renderKatex } from "@/platform/richtext/katex-render";
import { parseRichText } from "@/platform/richtext/parse";
import { renderNodes } from "@/platform/richtext/render-core";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { renderSceneWith } from "@/features/scenes/ui/render-scene-core";
import { SceneView } from "@/features/scenes/ui/scene-view";
import type { SceneAnswer } from "@/features/scenes/ui/types";

const SIZES = ["phone", "projector"] as const;
type Size = (typeof SIZES)[number];

/** A row of radio buttons (arrow keys move the choice, as in any radio group). */
function Choice<T extends string>({
  legend,
  name,
  values,
  value,
  label,
  onChange,
}: {
  legend: string;
  name: string;
  values: readonly T[];
  value: T;
  label: (v: T) => string;
  onChange: (v: T) => void;
}) {
  return (
    <fieldset className="preview-choice">
      <legend className="field-label">
        <RichTextClient text={legend} />
      </legend>
      <div className="row">
        {values.map((v) => (
          <label key={v} className="row preview-option">
            <input
              type="radio"
              name={name}
              value={v}
              checked={value === v}
              onChange={() => onChange(v)}
              data-testid={`preview-${v}`}
            />
            <RichTextClient text={label(v)} />
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The scene as a student sees it, while it is typed (math typeset as on the server): its content
 * in any of the three display languages (the teacher's by default) at phone or projector size.
 */
export function ScenePreview({ scene }: { scene: { id: string; type: string; content: unknown } }) {
  const t = useTranslations("SceneEditor");
  const tt = useTranslations("Toolbar");
  const tl = useTranslations("Language");
  const name = useId();
  const [lang, setLang] = useState<DisplayLanguage>(languageOfLocaleTag(useLocale()));
  const [size, setSize] = useState<Size>("phone");
  const [answer, setAnswer] = useState<SceneAnswer | null>(null);
  const rendered = renderSceneWith(
    scene,
    lang,
    (text) => <span className="rt">{renderNodes(parseRichText(text), lang, renderKatex)}</span>,
    { key: true },
  );
  return (
    <section className="stack scene-preview" aria-labelledby={`${scene.id}-preview`} data-testid="scene-preview">
      <h3 id={`${scene.id}-preview`}>
        <RichTextClient text={t("preview")} />
      </h3>
      <div className="row preview-switches">
        <Choice
          legend={tt("previewLanguage")}
          name={`${name}-lang`}
          values={DISPLAY_LANGUAGES}
          value={lang}
          label={(v) => tl(v)}
          onChange={setLang}
        />
        <Choice
          legend={tt("previewSize")}
          name={`${name}-size`}
          values={SIZES}
          value={size}
          label={(v) => tt(v)}
          onChange={setSize}
        />
      </div>
      <div className={`preview-frame preview-${size}`} data-testid="preview-frame" data-size={size} data-lang={lang}>
        {rendered ? (
          <SceneView scene={rendered} answer={answer} onAnswer={setAnswer} />
        ) : (
          <p className="muted" data-testid="preview-invalid">
            <RichTextClient text={t("previewInvalid")} />
          </p>
        )}
      </div>
    </section>
  );
}
