import { Fragment, type ReactNode } from "react";
import type { DisplayLanguage } from "@/platform/i18n/languages";
import { colorToken, LIGHT_TOKENS } from "./colors";
import type { RichNode } from "./parse";

export type MathRenderer = (tex: string, key: string) => ReactNode;

/**
 * Builds React elements from parsed markup. Never emits HTML from input:
 * text is text; the only HTML is what `renderMath` returns (KaTeX on the
 * server). Ruby follows the display language (docs/product-design.md).
 */
export function renderNodes(
  nodes: RichNode[],
  lang: DisplayLanguage,
  renderMath: MathRenderer,
  prefix = "r",
): ReactNode[] {
  return nodes.map((node, index) => {
    const key = `${prefix}.${index}`;
    switch (node.type) {
      case "text":
        return <Fragment key={key}>{node.value}</Fragment>;
      case "br":
        return <br key={key} />;
      case "ruby":
        if (lang === "ja") return <Fragment key={key}>{node.base}</Fragment>;
        if (lang === "ja-kana") return <Fragment key={key}>{node.reading}</Fragment>;
        // mono-ruby: one <rt> per character, so a long reading does not spread the kanji apart
        return (
          <ruby key={key}>
            {(node.parts ?? [node]).map((part, i) => (
              <Fragment key={i}>
                {part.base}
                <rp>(</rp>
                <rt>{part.reading}</rt>
                <rp>)</rp>
              </Fragment>
            ))}
          </ruby>
        );
      case "math":
        return renderMath(node.tex, key);
      case "bold":
        return <strong key={key}>{renderNodes(node.children, lang, renderMath, key)}</strong>;
      case "underline":
        return (
          <span key={key} className="rt-underline">
            {renderNodes(node.children, lang, renderMath, key)}
          </span>
        );
      case "color": {
        const token = colorToken(node.name);
        const children = renderNodes(node.children, lang, renderMath, key);
        if (!token) return <Fragment key={key}>{children}</Fragment>;
        const chip = LIGHT_TOKENS.has(token) ? " rt-chip" : "";
        return (
          <span key={key} className={`rt-color${chip}`} data-color={token} style={{ color: `var(--color-${token})` }}>
            {children}
          </span>
        );
      }
    }
  });
}

/** Math shown as its source (client components: KaTeX stays on the server). */
export const mathAsSource: MathRenderer = (tex, key) => (
  <code key={key} className="rt-math-source">
    {tex}
  </code>
);
