/**
 * Reads a zip by what its entries really hold, not by what they declare: every entry's data must
 * lie in the file on its own (two entries sharing or overlapping bytes, the trick behind a
 * non-recursive zip bomb, are refused), and each is inflated with the output capped at its declared
 * size, so an entry that inflates to more stops at the cap (and is refused) instead of running on.
 * The declared sizes of the entries kept add up to at most `maxBytes`, checked before anything is
 * inflated, so the bytes actually inflated never pass it either.
 */
import { crc32, inflateRawSync } from "node:zlib";

/** Why a zip is refused: not a zip this reader accepts (damaged, encrypted, zip64, shared data, a size that lies), or larger than allowed. */
export class ZipError extends Error {
  constructor(
    readonly kind: "invalid" | "tooLarge",
    readonly bytes = 0,
  ) {
    super(`zip: ${kind}`);
    this.name = "ZipError";
  }
}

interface Entry {
  name: string;
  method: number;
  crc: number;
  packed: number;
  size: number;
  /** Where the entry's local header starts and its data ends: the bytes it owns. */
  start: number;
  end: number;
  dataAt: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATE = 8;

const invalid = () => new ZipError("invalid");

function endOfCentralDirectory(view: DataView): number {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - MAX_COMMENT); at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw invalid();
}

function entryName(bytes: Uint8Array, utf8: boolean): string {
  return new TextDecoder(utf8 ? "utf-8" : "latin1").decode(bytes);
}

/** The central directory's entries, each with the bytes it owns (local header and data), checked to lie in the file before the directory. */
function centralDirectory(zip: Uint8Array): Entry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const eocd = endOfCentralDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  const dirSize = view.getUint32(eocd + 12, true);
  const dirAt = view.getUint32(eocd + 16, true);
  // several disks and zip64 (sizes past 4 GiB) are never a roster set
  if (view.getUint16(eocd + 4, true) !== 0 || count === 0xffff || dirAt === 0xffffffff || dirAt + dirSize > eocd)
    throw invalid();
  const entries: Entry[] = [];
  let at = dirAt;
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || view.getUint32(at, true) !== CENTRAL) throw invalid();
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const start = view.getUint32(at + 42, true);
    if (flags & 1 || (method !== STORED && method !== DEFLATE) || packed === 0xffffffff || size === 0xffffffff)
      throw invalid();
    if (at + 46 + skip > eocd || start + 30 > dirAt || view.getUint32(start, true) !== LOCAL) throw invalid();
    const dataAt = start + 30 + view.getUint16(start + 26, true) + view.getUint16(start + 28, true);
    const end = dataAt + packed;
    if (end > dirAt) throw invalid();
    const name = entryName(zip.subarray(at + 46, at + 46 + nameLength), (flags & 0x800) !== 0);
    entries.push({ name, method, crc: view.getUint32(at + 16, true), packed, size, start, end, dataAt });
    at += 46 + skip;
  }
  return entries;
}

/** No two entries own the same byte: entries that share or overlap data are refused. */
function checkApart(entries: Entry[]): void {
  const sorted = [...entries].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) if (sorted[i]!.start < sorted[i - 1]!.end) throw invalid();
}

function inflate(zip: Uint8Array, entry: Entry): Uint8Array {
  const data = zip.subarray(entry.dataAt, entry.end);
  let out: Uint8Array;
  if (entry.method === STORED) out = data;
  else {
    try {
      // one byte more than declared is enough to know the entry lies: the inflating stops there
      out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch {
      throw invalid();
    }
  }
  if (out.byteLength !== entry.size || crc32(out) !== entry.crc) throw invalid();
  return out;
}

/**
 * The entries `keep` accepts, by name, inflated. Throws ZipError: "tooLarge" (with the declared
 * total) when the kept entries declare more than `maxBytes`, "invalid" for anything else wrong.
 */
export function readZip(
  zip: Uint8Array,
  keep: (name: string) => boolean,
  maxBytes: number,
): Record<string, Uint8Array> {
  if (zip.byteLength < 22) throw invalid();
  const entries = centralDirectory(zip);
  checkApart(entries);
  const kept = entries.filter((e) => keep(e.name));
  if (new Set(kept.map((e) => e.name)).size !== kept.length) throw invalid();
  const declared = kept.reduce((sum, e) => sum + e.size, 0);
  if (declared > maxBytes) throw new ZipError("tooLarge", declared);
  const files: Record<string, Uint8Array> = {};
  let inflated = 0;
  for (const entry of kept) {
    const bytes = inflate(zip, entry);
    inflated += bytes.byteLength;
    if (inflated > maxBytes) throw new ZipError("tooLarge", inflated);
    files[entry.name] = bytes;
  }
  return files;
}
