import type { DisplayLanguage } from "@/platform/i18n/languages";
import { RichText } from "@/platform/ui/rich-text";
import { type ImageSrc, renderSceneWith } from "./render-scene-core";

const rich = (text: string) => <RichText text={text} />;

/** Renders a stored scene's texts on the server (one renderer for preview, solo, session and response). */
export function renderScene(
  stored: { id: string; type: string; content: unknown },
  lang: DisplayLanguage,
  opts?: { key?: boolean; imageSrc?: ImageSrc; seed?: string },
) {
  return renderSceneWith(stored, lang, rich, opts);
}
