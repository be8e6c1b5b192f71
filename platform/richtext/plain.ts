import type { DisplayLanguage } from "@/platform/i18n/languages";
import { parseRichText, type RichNode } from "./parse";

/** The text a reader sees, for titles, aria-labels, CSV and PDF (ruby by display language). */
export function nodesToPlainText(nodes: RichNode[], lang: DisplayLanguage): string {
  return nodes
    .map((n) => {
      switch (n.type) {
        case "text":
          return n.value;
        case "br":
          return "\n";
        case "ruby":
          return lang === "ja-kana" ? n.reading : n.base;
        case "math":
          return n.tex;
        default:
          return nodesToPlainText(n.children, lang);
      }
    })
    .join("");
}

export function toPlainText(input: string, lang: DisplayLanguage): string {
  return nodesToPlainText(parseRichText(input), lang);
}
