import { parse, CsvError, type Options } from "csv-parse";

/** The bytes of one file, in chunks (a zip entry sliced, or a file read from disk). */
export type ByteChunks = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** One CSV record: its fields and the physical line it starts on (1-based). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Raised when a file is not UTF-8; `encoding` names what it most likely is. */
export class EncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`not UTF-8 (${encoding})`);
  }
}

/** Raised on a CSV syntax error (e.g. an unclosed quote); `line` is where the bad record starts. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly cause: unknown,
  ) {
    super(`CSV syntax error at line ${line}`);
  }
}

/** Whether the bytes read as Shift_JIS (Windows-31J): single bytes, half-width kana, and valid lead/trail pairs. */
export function looksLikeShiftJis(bytes: Uint8Array): boolean {
  let pairs = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80 || (b >= 0xa1 && b <= 0xdf)) continue;
    if ((b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc)) {
      if (i + 1 >= bytes.length) return pairs > 0; // a pair cut at the chunk's end
      const t = bytes[i + 1]!;
      if (t < 0x40 || t === 0x7f || t > 0xfc) return false;
      i++;
      pairs++;
      continue;
    }
    return false;
  }
  return true;
}

function looksLikeEucJp(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    if (b === 0x8e || (b >= 0xa1 && b <= 0xfe)) {
      if (i + 1 >= bytes.length) return true;
      const t = bytes[i + 1]!;
      if (t < 0xa1 || t > 0xfe) return false;
      i++;
      continue;
    }
    return false;
  }
  return true;
}

/** A name for bytes that are not UTF-8, as a person saving a file would know it. */
export function guessEncoding(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16";
  if (looksLikeShiftJis(bytes)) return "Shift_JIS";
  if (looksLikeEucJp(bytes)) return "EUC-JP";
  return "UTF-8 以外の文字コード";
}

/** The longest record read (characters); real rows are under 2,000. */
export const MAX_RECORD_CHARS = 1_000_000;

/** Lines a field spans beyond its first: CRLF, CR or LF each end one physical line. */
function extraLines(fields: string[]): number {
  let n = 0;
  for (const f of fields) {
    for (let i = 0; i < f.length; i++) {
      const c = f.charCodeAt(i);
      if (c === 10) n++;
      else if (c === 13) {
        n++;
        if (f.charCodeAt(i + 1) === 10) i++;
      }
    }
  }
  return n;
}

/**
 * Decodes UTF-8 chunk by chunk (a BOM is dropped: liberal in) and yields the CSV records one by
 * one (RFC 4180: quoted commas, quotes and line breaks; CRLF or LF), so a file of 100,000 rows
 * never exists as one string. Blank lines are skipped but counted. Throws EncodingError or
 * CsvSyntaxError.
 */
export async function* readCsvRecords(chunks: ByteChunks): AsyncGenerator<CsvRecord> {
  let line = 1;
  const options: Options<CsvRecord, string[]> = {
    relax_column_count: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    skip_empty_lines: false,
    // A record longer than this (e.g. an unclosed quote swallowing the file) is a syntax error, not held in memory.
    max_record_size: MAX_RECORD_CHARS,
    // Runs as each record is parsed, so `line` is exact even when a later record fails.
    on_record: (fields: string[]) => {
      const start = line;
      line += 1 + extraLines(fields);
      return fields.length === 1 && fields[0] === "" ? null : { line: start, fields };
    },
  };
  const parser = parse(options as unknown as Options);
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  const feed = async () => {
    try {
      for await (const chunk of chunks) {
        let text: string;
        try {
          text = decoder.decode(chunk, { stream: true });
        } catch {
          throw new EncodingError(guessEncoding(chunk));
        }
        if (text && !parser.write(text)) await new Promise((resolve) => parser.once("drain", resolve));
      }
      try {
        const rest = decoder.decode();
        if (rest) parser.write(rest);
      } catch {
        throw new EncodingError("UTF-8 以外の文字コード");
      }
      parser.end();
    } catch (error) {
      parser.destroy(error as Error);
    }
  };
  void feed();
  try {
    for await (const record of parser as AsyncIterable<CsvRecord>) yield record;
  } catch (error) {
    if (error instanceof CsvError) throw new CsvSyntaxError(line, error);
    throw error;
  }
}
