/**
 * The Lighthouse section of docs/benchmarks.md: written by a full `npm run lighthouse` (as
 * `npm run bench` writes the rest), kept by the bench when it rewrites the file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const HEADING = "## Lighthouse";
export const BENCHMARKS_FILE = path.resolve(import.meta.dirname, "../../docs/benchmarks.md");
const NOTES_FILE = path.resolve(import.meta.dirname, "notes.md");

/** The section (from its heading to the next `## ` heading or the end), or "". */
export function lighthouseSection(markdown: string): string {
  const start = markdown.indexOf(`\n${HEADING}\n`);
  if (start === -1) return "";
  const next = markdown.indexOf("\n## ", start + HEADING.length + 2);
  return markdown.slice(start + 1, next === -1 ? undefined : next + 1).trimEnd() + "\n";
}

/** `markdown` with its Lighthouse section replaced by (or, if it has none, followed by) `section`. */
export function withLighthouseSection(markdown: string, section: string): string {
  const old = lighthouseSection(markdown);
  if (old) return markdown.replace(old, section);
  return `${markdown.trimEnd()}\n\n${section}`;
}

export function writeLighthouseSection(lines: { intro: string; table: string[]; verdict: string }): void {
  const section =
    `${HEADING}\n\n${lines.intro}\n\n` +
    `${lines.table.join("\n")}\n\n${lines.verdict}\n\n` +
    readFileSync(NOTES_FILE, "utf8").trimEnd() +
    "\n";
  writeFileSync(BENCHMARKS_FILE, withLighthouseSection(readFileSync(BENCHMARKS_FILE, "utf8"), section));
}
