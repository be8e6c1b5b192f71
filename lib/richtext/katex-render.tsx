import katex from "katex";
import type { MathRenderer } from "./render-core";

/**
 * KaTeX with `trust` off and size/expansion limits; invalid TeX shows its source marked as an error.
 * Shared by the server renderer (lib/richtext/katex.tsx) and the editor's live
 * preview (staff only; students never load KaTeX in the browser).
 */
export const renderKatex: MathRenderer = (tex, key) => {
  try {
    const html = katex.renderToString(tex, {
      throwOnError: true,
      trust: false,
      strict: "ignore",
      maxSize: 20,
      maxExpand: 200,
      output: "htmlAndMathml",
    });
    return <span key={key} className="rt-math" dangerouslySetInnerHTML={{ __html: html }} />;
  } catch {
    return (
      <code key={key} className="rt-math-error" data-math-error="true">
        {tex}
      </code>
    );
  }
};
