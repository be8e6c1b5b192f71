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

const keyAt = ({ text, starts }: Table, line: number) => text.slice(starts[line]!, text.indexOf("\t", starts[line]!));
/** Line `line` without its newline (the last line may have none). */
const lineAt = ({ text, starts }: Table, line: number) =>
  text.slice(starts[line]!, line + 1 < starts.length ? starts[line + 1]! - 1 : text.length).replace(/\n$/, "");

/** The first line whose word is `word` or after it, by binary search over the sorted lines (their count: none). */
function lowerBound(table: Table, word: string): number {
  let lo = 0;
  let hi = table.starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyAt(table, mid) < word) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lexiconOf(table: Table): Lexicon {
  return {
    word(surface) {
      const line = lowerBound(table, surface);
      if (line === table.starts.length || keyAt(table, line) !== surface) return undefined;
      const [, readings, common] = lineAt(table, line).split("\t");
      return { readings: readings!.split(" "), common: common || null };
    },
    hasPrefix(prefix) {
      const line = lowerBound(table, prefix);
      return line < table.starts.length && keyAt(table, line).startsWith(prefix);
    },
  };
}

let loading: Promise<Lexicon> | null = null;

export function loadLexicon(file = LEXICON_FILE): Promise<Lexicon> {
  // the file is given at run time (a test's own): the ignore comment keeps the build from tracing the whole project
  loading ??= readFile(/*turbopackIgnore: true*/ file)
    .then((gz) => promisify(gunzip)(gz))
    .then((raw) => {
      const text = raw.toString("utf8");
      return lexiconOf({ text, starts: offsets(text) });
    })
    .catch((error: unknown) => {
      loading = null; // a failed read (the file missing) is tried again on the next call
      throw error;
    });
  return loading;
}

/**
 * The 常用漢字 by reading (lexicon/kanji-readings.tsv, from KANJIDIC; lexicon/README.md), for the words written half
 * in kana (shared/furigana-mixed-rules.ts): a reading in hiragana to the kanji read so, 1,620 of them, read once per
 * process on first use.
 */
export interface KanjiReadings {
  /** a reading to the kanji read so */
  byReading: Map<string, string>;
  /** a kanji to its readings */
  ofKanji: Map<string, string[]>;
}
export const KANJI_READINGS_FILE = path.join(path.dirname(LEXICON_FILE), "kanji-readings.tsv");
let loadingKanji: Promise<KanjiReadings> | null = null;

function kanjiReadingsOf(text: string): KanjiReadings {
  const byReading = new Map<string, string>();
  const ofKanji = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const [reading, kanji] = line.split("\t");
    if (!reading || !kanji) continue;
    byReading.set(reading, kanji);
    for (const one of kanji) {
      const readings = ofKanji.get(one) ?? [];
      readings.push(reading);
      ofKanji.set(one, readings);
    }
  }
  return { byReading, ofKanji };
}

export function loadKanjiReadings(file = KANJI_READINGS_FILE): Promise<KanjiReadings> {
  loadingKanji ??= readFile(/*turbopackIgnore: true*/ file, "utf8")
    .then(kanjiReadingsOf)
    .catch((error: unknown) => {
      loadingKanji = null; // a failed read (the file missing) is tried again on the next call
      throw error;
    });
  return loadingKanji;
}
