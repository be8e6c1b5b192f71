/** Reads one of the seven files the product uses: header, then each row checked and typed. */
import { readCsvRecords, CsvSyntaxError, EncodingError, type ByteChunks } from "./oneroster-csv-stream";
import { FILE_COLUMNS, type Column, type ReadFile } from "./oneroster-columns";
import { readField, type Value } from "./oneroster-fields";
import type { FileMode, RosterSet } from "./oneroster-model";
import type { ProblemList } from "./oneroster-problems";
import { buildRow } from "./oneroster-rows";

export type Progress = (file: string, rows: number) => void;

/** The accepted header variant the header starts with; extra trailing columns are ignored (liberal in). */
export function matchHeader(
  file: ReadFile,
  header: string[],
  problems: ProblemList,
  fileName: string,
): Column[] | null {
  const variants: readonly Column[][] = FILE_COLUMNS[file];
  let best = variants[0]!;
  let bestAt = -1;
  for (const cols of variants) {
    const at = cols.findIndex((col, i) => header[i] !== col.name);
    if (at === -1) return cols;
    if (at > bestAt) [best, bestAt] = [cols, at];
  }
  problems.add("headerMismatch", fileName, 1, header[bestAt] ?? "", {
    position: bestAt + 1,
    expected: best[bestAt]?.name ?? "",
  });
  return null;
}

/** Progress is reported every this many rows (and at the end of each file). */
const PROGRESS_EVERY = 5000;

/** The file's rows and the header variant it uses, or null after a problem that stops the whole file (encoding, header, CSV syntax). */
export async function readRosterFile<F extends ReadFile>(
  file: F,
  chunks: ByteChunks,
  mode: FileMode,
  problems: ProblemList,
  onProgress?: Progress,
): Promise<{ rows: RosterSet[F]; columns: Column[] } | null> {
  const fileName = `${file}.csv`;
  const rows: RosterSet[F][number][] = [];
  let cols: Column[] | null = null;
  let index = new Map<string, number>();
  let sawHeader = false;
  const shared = new Map<string, string>();
  try {
    for await (const record of readCsvRecords(chunks)) {
      if (!sawHeader) {
        sawHeader = true;
        cols = matchHeader(file, record.fields, problems, fileName);
        if (!cols) return null;
        index = new Map(cols.map((col, i) => [col.name, i]));
        continue;
      }
      const at = { file: fileName, line: record.line, problems, mode, shared };
      const values: Value[] = cols!.map((col, i) => readField(col, record.fields[i], at));
      rows.push(buildRow(file, (name) => values[index.get(name) ?? -1] ?? null, record.line));
      if (rows.length % PROGRESS_EVERY === 0) onProgress?.(fileName, rows.length);
    }
  } catch (error) {
    if (error instanceof EncodingError) problems.add("encodingNotUtf8", fileName, 0, "", { encoding: error.encoding });
    else if (error instanceof CsvSyntaxError) problems.add("csvSyntax", fileName, error.line, "");
    else problems.add("fileUnreadable", fileName, 0, "");
    return null;
  }
  if (!sawHeader) {
    problems.add("fileEmpty", fileName, 0, "");
    return null;
  }
  onProgress?.(fileName, rows.length);
  return { rows: rows as RosterSet[F], columns: cols! };
}
