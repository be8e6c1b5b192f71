import { readFile, stat } from "node:fs/promises";
import type { LegacyProblem } from "../shared/legacy-format";

export type JsonRead = { ok: true; json: unknown } | { ok: false; problems: LegacyProblem[] };

/**
 * The largest export read (bytes). The import holds the parsed file and its
 * plan in memory (measured: 200,000 people, a 74 MB file, 3 GB resident), so
 * 256 MiB is about the most a machine of 8 GB imports; larger exports are
 * split by school (README).
 */
export const MAX_EXPORT_BYTES = 256 * 1024 * 1024;

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line += 1;
    last = i;
  }
  return `line ${line}, column ${offset - last}`;
}

/**
 * Why JSON.parse refused the text, without any of the text: V8 quotes the
 * characters around the error ("Unexpected token 'S', …"Sup3rSecre"…"), and
 * an export holds clear-text passwords. Only the kind of error and where.
 */
function syntaxProblem(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const position = /at position (\d+)/.exec(message)?.[1];
  const kind =
    message
      .split(/['"(,]/)[0]!
      .replace(/\s+in JSON.*$/, "")
      .trim() || "syntax error";
  const where =
    position !== undefined
      ? lineColumn(text, Number(position))
      : /end of JSON/.test(message)
        ? lineColumn(text, text.length)
        : "position not reported";
  return `${kind} at ${where}`;
}

/** Reads a JSON file (the export or the school-academy map): bounded in size, and reported without quoting its text. */
export async function readJsonFile(file: string, what: string, limits: { maxBytes?: number } = {}): Promise<JsonRead> {
  const maxBytes = limits.maxBytes ?? MAX_EXPORT_BYTES;
  const refuse = (message: string): JsonRead => ({ ok: false, problems: [{ path: file, message }] });
  let text: string;
  try {
    const size = (await stat(file)).size;
    if (size > maxBytes)
      return refuse(`the ${what} is larger than the limit (${size} bytes; at most ${maxBytes}): split it by school`);
    text = await readFile(file, "utf8");
  } catch (error) {
    return refuse(`cannot read the ${what}: ${(error as NodeJS.ErrnoException).code ?? "unknown error"}`);
  }
  text = text.replace(/^\uFEFF/, "");
  try {
    return { ok: true, json: JSON.parse(text) };
  } catch (error) {
    return refuse(`the ${what} is not valid JSON (${syntaxProblem(text, error)})`);
  }
}
