import "server-only";

/** The server's math renderer (the editor's preview imports katex-render directly). */
export { renderKatex } from "./katex-render";
