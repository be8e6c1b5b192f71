import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { Lexicon } from "../shared/furigana-lexicon-rules";

/**
 * The second dictionary (shared/furigana-lexicon-rules.ts): EDICT's words that the analyser's dictionary cuts or
 * lacks, 73,000 lines sorted by word in lexicon/compounds.tsv.gz (0.7 MB; how it is made and its licence in
 * lexicon/README.md), read from the local disk once per process on first use, like the analyser's dictionary. It
 * stays one string (2.4 MB) with the lines' offsets, searched by halves: read and unzipped off the main thread,
 * only the offsets are found on it (a few ms), where parsing every line would hold it for about 0.25 s.
 */
export const LEXICON_FILE = path.join(process.cwd(), "features", "activities", "server", "lexicon", "compounds.tsv.gz");

interface Table {
  text: string;
  /** where each line starts in `text` */
  starts: Uint32Array;
}

function offsets(text: string): Uint32Array {
  const starts: number[] = [0];
  for (let at = text.indexOf("\n"); at >= 0 && at + 1 < text.length; at = text.indexOf("\n", at + 1))
    starts.push(at + 1);
  return Uint32Array.from(starts);
}

/** The line for `word`, split into its fields, by binary search over the sorted lines. */
function find({ text, starts }: Table, word: string): string[] | undefined {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const start = starts[mid]!;
    const key = text.slice(start, text.indexOf("\t", start));
    if (key === word) return text.slice(start, (text.indexOf("\n", start) + 1 || text.length + 1) - 1).split("\t");
    if (key < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

let loading: Promise<Lexicon> | null = null;

export function loadLexicon(file = LEXICON_FILE): Promise<Lexicon> {
  loading ??= readFile(file)
    .then((gz) => promisify(gunzip)(gz))
    .then((raw) => {
      const text = raw.toString("utf8");
      const table: Table = { text, starts: offsets(text) };
      return (word: string) => {
        const line = find(table, word);
        return line && { readings: line[1]!.split(" "), common: line[2] || null };
      };
    })
    .catch((error: unknown) => {
      loading = null; // a failed read (the file missing) is tried again on the next call
      throw error;
    });
  return loading;
}
