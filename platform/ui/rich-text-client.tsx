"use client";
import { useLocale } from "next-intl";
import { languageOfLocaleTag } from "@/platform/i18n/languages";
import { parseRichText } from "@/platform/richtext/parse";
import { mathAsSource, renderNodes } from "@/platform/richtext/render-core";

/** Client component: UI strings with ruby/bold/colour (math is typeset only by the server <RichText>). */
export function RichTextClient({ text }: { text: string }) {
  const lang = languageOfLocaleTag(useLocale());
  // one inline box: inside a flex container (buttons, rows) the text and its ruby stay one item
  return <span className="rt">{renderNodes(parseRichText(text), lang, mathAsSource)}</span>;
}
