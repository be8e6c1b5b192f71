import { useLocale } from "next-intl";
import { languageOfLocaleTag } from "@/platform/i18n/languages";
import { renderKatex } from "@/platform/richtext/katex";
import { parseRichText } from "@/platform/richtext/parse";
import { renderNodes } from "@/platform/richtext/render-core";

/** Server component: rich-text markup in the current display language, math typeset by KaTeX. */
export function RichText({ text }: { text: string }) {
  const lang = languageOfLocaleTag(useLocale());
  // one inline box: inside a flex container (buttons, rows) the text and its ruby stay one item
  return <span className="rt">{renderNodes(parseRichText(text), lang, renderKatex)}</span>;
}
