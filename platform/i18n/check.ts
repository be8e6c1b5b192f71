import { IntlMessageFormat } from "intl-messageformat";
import { parseRichText, type RichNode } from "@/platform/richtext/parse";
import type { DisplayLanguage } from "./languages";

/**
 * Catalogue checks (`npm run i18n:check`, part of `npm test`): the same keys in
 * every catalogue; ICU syntax that formats; markup that parses (no stray
 * delimiters left as text); no Han character in the kana catalogue; every Han
 * character of the reading-aids catalogue inside a ruby base; a ・-split
 * reading (mono-ruby) with one part per base character.
 */
export type Catalogue = Record<string, unknown>;

const HAN = /\p{Script=Han}/u;
const STRAY = /\|(?!\|)|\*\*|__|`|\{[a-z][a-z-]*:/;

export function flatten(catalogue: Catalogue, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else if (value && typeof value === "object") for (const [k, v] of flatten(value as Catalogue, path)) out.set(k, v);
    else out.set(path, String(value));
  }
  return out;
}

function textOutsideRuby(nodes: RichNode[]): string {
  return nodes
    .map((n) => {
      if (n.type === "text") return n.value;
      if (n.type === "ruby" || n.type === "br" || n.type === "math") return "";
      return textOutsideRuby(n.children);
    })
    .join("");
}

/** Ruby whose reading has ・ but did not become mono-ruby (part count ≠ character count). */
function splitMismatches(nodes: RichNode[]): string[] {
  return nodes.flatMap((n) => {
    if (n.type === "ruby") return n.reading.includes("・") && !n.parts ? [`${n.base}(${n.reading})`] : [];
    return "children" in n ? splitMismatches(n.children) : [];
  });
}

function textNodes(nodes: RichNode[]): string[] {
  return nodes.flatMap((n) => (n.type === "text" ? [n.value] : "children" in n ? textNodes(n.children) : []));
}

/** ICU placeholders like {name} or {count, plural, …} are not markup. */
function withoutPlaceholders(message: string): string {
  return message.replace(/\{\s*[A-Za-z_][\w]*\s*(,[^{}]*(\{[^{}]*\}[^{}]*)*)?\}/g, "");
}

export function checkCatalogues(catalogues: Record<DisplayLanguage, Catalogue>): string[] {
  const problems: string[] = [];
  const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, c]) => [lang, flatten(c)])) as Record<
    DisplayLanguage,
    Map<string, string>
  >;
  const allKeys = new Set(Object.values(flat).flatMap((m) => [...m.keys()]));
  for (const [lang, messages] of Object.entries(flat) as [DisplayLanguage, Map<string, string>][]) {
    for (const key of allKeys) if (!messages.has(key)) problems.push(`${lang}: missing ${key}`);
    for (const [key, message] of messages) {
      try {
        new IntlMessageFormat(message, "ja").format({});
      } catch (error) {
        if (!/was not provided|The intl string context variable/.test(String(error))) {
          problems.push(`${lang}: ${key}: ICU syntax: ${(error as Error).message}`);
        }
      }
      const nodes = parseRichText(withoutPlaceholders(message));
      if (textNodes(nodes).some((t) => STRAY.test(t)))
        problems.push(`${lang}: ${key}: markup does not parse: ${message}`);
      if (lang === "ja-kana" && HAN.test(message))
        problems.push(`${lang}: ${key}: kanji in the kana catalogue: ${message}`);
      if (lang === "ja-ruby" && HAN.test(textOutsideRuby(nodes))) {
        problems.push(`${lang}: ${key}: kanji without a reading: ${message}`);
      }
      for (const ruby of splitMismatches(nodes)) {
        problems.push(`${lang}: ${key}: mono-ruby needs one ・-separated reading per character: ${ruby}`);
      }
    }
  }
  return problems;
}
