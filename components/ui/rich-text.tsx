import { useLocale } from "next-intl";
import { languageOfLocaleTag } from "@/lib/i18n/languages";
import { renderKatex } from "@/lib/richtext/katex";
import { parseRichText } from "@/lib/richtext/parse";
import { renderNodes } from "@/lib/richtext/render-core";

/** Server component: rich-text markup in the current display language, math typeset by KaTeX. */
export function RichText({ text }: { text: string }) {
  const lang = languageOfLocaleTag(useLocale());
  // one inline box: inside a flex container (buttons, rows) the text and its ruby stay one item
  return <span className="rt">{renderNodes(parseRichText(text), lang, renderKatex)}</span>;
}
