/** Helpers for the OneRoster tests: a fixture folder as name → bytes, and edits of one file's text. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const FIXTURES = path.join(__dirname, "..", "fixtures", "oneroster");

export function loadFixture(
  name: "bulk-jhs" | "delta-jhs" | "bulk-full" | "delta-scheduled",
): Record<string, Uint8Array> {
  const dir = path.join(FIXTURES, name);
  return Object.fromEntries(readdirSync(dir).map((f) => [f, new Uint8Array(readFileSync(path.join(dir, f)))]));
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A copy of `files` with one file's text changed. */
export function editFile(
  files: Record<string, Uint8Array>,
  name: string,
  edit: (text: string) => string,
): Record<string, Uint8Array> {
  return { ...files, [name]: enc.encode(edit(dec.decode(files[name]))) };
}

/** The problems' (code, file, line, column) as one string each, for compact assertions. */
export const where = (problems: { code: string; file: string; line: number; column: string }[]) =>
  problems.map((p) => `${p.code} ${p.file}:${p.line} ${p.column}`);
