import katex from "katex";
import type { MathRenderer } from "./render-core";

/** `trust` off and size/expansion limits: the one set of KaTeX options. */
const OPTIONS = {
  throwOnError: true,
  trust: false,
  strict: "ignore",
  maxSize: 20,
  maxExpand: 200,
  output: "htmlAndMathml",
} as const;

/** The typeset HTML of `tex`, or null when KaTeX cannot read it (the visual editor's formulas use it too). */
export function typeset(tex: string): string | null {
  try {
    return katex.renderToString(tex, OPTIONS);
  } catch {
    return null;
  }
}

/** Whether the renderer typesets `tex` (the editor's math dialog inserts only such TeX). */
export const isValidTex = (tex: string): boolean => tex.trim() !== "" && !tex.includes("`") && typeset(tex) !== null;

/**
 * KaTeX with `trust` off and size/expansion limits; invalid TeX shows its source marked as an error.
 * Shared by the server renderer (platform/richtext/katex.tsx) and the editor's live
 * preview (staff only; students never load KaTeX in the browser).
 */
export const renderKatex: MathRenderer = (tex, key) => {
  const html = typeset(tex);
  if (html !== null) return <span key={key} className="rt-math" dangerouslySetInnerHTML={{ __html: html }} />;
  return (
    <code key={key} className="rt-math-error" data-math-error="true">
      {tex}
    </code>
  );
};
