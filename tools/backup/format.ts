import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { z } from "zod";

/**
 * The backup file (docs/adr/0045-own-logical-backups.md): gzip of UTF-8 lines.
 *   1. header: JSON {format, version, app, createdAt, migrations, tables: [{name, columns, rows}]}
 *   2. per table, in the header's order (referenced tables first):
 *      the table's rows as `COPY … TO STDOUT` text (one row a line), then the
 *      line `\.`, then a JSON footer {table, rows, digest}
 *   3. trailer: JSON {end: true, sha256} where sha256 covers every byte before it.
 * A COPY text line never is `\.` (a backslash in data is written `\\`).
 */
export const FORMAT = "manabiya-backup";
export const FORMAT_VERSION = 1;
export const END_OF_TABLE = "\\.";
/** A progress line within a large table every so many rows (besides one per table). */
export const PROGRESS_EVERY = 100_000;

export const DAMAGED = "the file is damaged or truncated";

/** A JSON line of the file; one that does not parse is damage. */
export function json(line: Buffer, what: string): unknown {
  try {
    return JSON.parse(line.toString("utf8"));
  } catch {
    throw new BackupRefused(`${DAMAGED} (${what} is not readable)`);
  }
}

/** Refused before or during a backup or restore: nothing was changed (the CLI exits 1 with the message). */
export class BackupRefused extends Error {}

export const headerSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int(),
  app: z.string(),
  createdAt: z.string(),
  migrations: z.array(z.object({ name: z.string(), checksum: z.string() })),
  tables: z.array(
    z.object({ name: z.string().min(1), columns: z.array(z.string().min(1)).min(1), rows: z.number().int().min(0) }),
  ),
});
export type BackupHeader = z.infer<typeof headerSchema>;
export const footerSchema = z.object({ table: z.string(), rows: z.number().int(), digest: z.string() });
export const trailerSchema = z.object({ end: z.literal(true), sha256: z.string() });

/**
 * Session settings under which COPY text is the same on every server and
 * for both directions (dates in UTC ISO, floats exact, bytea in hex).
 */
export const SESSION_SETTINGS = [
  "set client_encoding = 'UTF8'",
  "set timezone = 'UTC'",
  "set datestyle = 'ISO, YMD'",
  "set intervalstyle = 'postgres'",
  "set extra_float_digits = 3",
  "set bytea_output = 'hex'",
  "set statement_timeout = 0",
].join("; ");

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * A table's rows as one value that does not depend on their order (the sum of
 * each line's sha256, modulo 2^256): the restored table, read back, must give
 * the backup's value, whatever order PostgreSQL returns its rows in.
 */
export class RowsDigest {
  private sum = 0n;
  rows = 0;
  add(line: Buffer | string) {
    this.sum = (this.sum + BigInt(`0x${createHash("sha256").update(line).digest("hex")}`)) & ((1n << 256n) - 1n);
    this.rows++;
  }
  /** Adds every complete line of COPY text arriving in chunks (the rest waits for the next chunk). */
  private rest: Buffer = Buffer.alloc(0);
  addChunk(chunk: Buffer) {
    let data = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk;
    let nl: number;
    while ((nl = data.indexOf(10)) !== -1) {
      this.add(data.subarray(0, nl));
      data = data.subarray(nl + 1);
    }
    this.rest = Buffer.from(data);
  }
  hex() {
    if (this.rest.length) throw new Error("COPY output ended inside a row");
    return this.sum.toString(16).padStart(64, "0");
  }
}

/** Far above any row the app writes; bounds the memory a foreign or damaged file can take. */
const MAX_LINE = 256 << 20;

/** The lines of a stream (without their newline), reading as they are consumed: memory holds one chunk and one line. */
export async function* linesOf(stream: Readable): AsyncGenerator<Buffer> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let nl: number;
    while ((nl = data.indexOf(10)) !== -1) {
      yield data.subarray(0, nl);
      data = data.subarray(nl + 1);
    }
    rest = Buffer.from(data);
    if (rest.length > MAX_LINE) throw new BackupRefused(`${DAMAGED} (a line longer than ${MAX_LINE >> 20} MiB)`);
  }
  if (rest.length) throw new BackupRefused("the file is incomplete (truncated: its last line has no end)");
}

export type BackupReader = ReturnType<typeof backupReader>;

/** Reads the file line by line, hashing every byte; a gzip error is a damaged file. */
export function backupReader(file: string) {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const lines = linesOf(gunzip);
  const sha = createHash("sha256");
  return {
    sha,
    async next(): Promise<Buffer> {
      let result: IteratorResult<Buffer>;
      try {
        result = await lines.next();
      } catch (error) {
        if (error instanceof BackupRefused) throw error;
        throw new BackupRefused(`${DAMAGED} (${(error as Error).message})`);
      }
      if (result.done)
        throw new BackupRefused("the file is incomplete (truncated: it ends before its last table or its checksum)");
      sha.update(result.value).update("\n");
      return result.value;
    },
    async atEnd() {
      return (await lines.next().catch(() => ({ done: false }))).done === true;
    },
    close: () => input.destroy(),
  };
}
