"use client";
import { useLocale, useTranslations } from "next-intl";
import { useState } from "react";
import { languageOfLocaleTag } from "@/lib/i18n/languages";
import { renderKatex } from "@/lib/richtext/katex-render";
import { parseRichText } from "@/lib/richtext/parse";
import { renderNodes } from "@/lib/richtext/render-core";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { renderSceneWith } from "@/components/scenes/render-scene-core";
import { SceneView } from "@/components/scenes/scene-view";
import type { SceneAnswer } from "@/components/scenes/types";

/** The scene as a student sees it, in the teacher's display language, while it is typed (math typeset as on the server). */
export function ScenePreview({ scene }: { scene: { id: string; type: string; content: unknown } }) {
  const t = useTranslations("SceneEditor");
  const lang = languageOfLocaleTag(useLocale());
  const [answer, setAnswer] = useState<SceneAnswer | null>(null);
  const rendered = renderSceneWith(scene, lang, (text) => <span className="rt">{renderNodes(parseRichText(text), lang, renderKatex)}</span>, { key: true });
  return (
    <section className="stack scene-preview" aria-labelledby={`${scene.id}-preview`} data-testid="scene-preview">
      <h3 id={`${scene.id}-preview`}>
        <RichTextClient text={t("preview")} />
      </h3>
      {rendered ? (
        <SceneView scene={rendered} answer={answer} onAnswer={setAnswer} />
      ) : (
        <p className="muted" data-testid="preview-invalid">
          <RichTextClient text={t("previewInvalid")} />
        </p>
      )}
    </section>
  );
}
