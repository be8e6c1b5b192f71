/** Zips made byte by byte, for what a zip library will not write: entries that share data, sizes that lie. */
import { crc32, deflateRawSync } from "node:zlib";

export interface CraftedEntry {
  name: string;
  /** Which stored blob (by index into `blobs`) the entry's central record points at. */
  blob: number;
  /** The size it declares (default: the blob's real size). */
  declared?: number;
}

function localHeader(name: Buffer, crc: number, packed: number, size: number): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(0x800, 6);
  h.writeUInt16LE(8, 8);
  h.writeUInt32LE(crc, 14);
  h.writeUInt32LE(packed, 18);
  h.writeUInt32LE(size, 22);
  h.writeUInt16LE(name.length, 26);
  return Buffer.concat([h, name]);
}

function centralRecord(name: Buffer, crc: number, packed: number, size: number, offset: number): Buffer {
  const c = Buffer.alloc(46);
  c.writeUInt32LE(0x02014b50, 0);
  c.writeUInt16LE(20, 4);
  c.writeUInt16LE(20, 6);
  c.writeUInt16LE(0x800, 8);
  c.writeUInt16LE(8, 10);
  c.writeUInt32LE(crc, 16);
  c.writeUInt32LE(packed, 20);
  c.writeUInt32LE(size, 24);
  c.writeUInt16LE(name.length, 28);
  c.writeUInt32LE(offset, 42);
  return Buffer.concat([c, name]);
}

/**
 * A zip of the `blobs` (each stored once, deflated, under its own local header) whose central
 * directory lists `entries`: several may point at the same blob, and each may declare any size.
 */
export function craftZip(
  blobs: { name: string; bytes: Uint8Array }[],
  entries: CraftedEntry[],
): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  const stored: { offset: number; crc: number; packed: number; size: number }[] = [];
  let offset = 0;
  for (const blob of blobs) {
    const data = deflateRawSync(blob.bytes, { level: 9 });
    const crc = crc32(blob.bytes);
    const header = localHeader(Buffer.from(blob.name), crc, data.length, blob.bytes.length);
    stored.push({ offset, crc, packed: data.length, size: blob.bytes.length });
    parts.push(header, data);
    offset += header.length + data.length;
  }
  const dirAt = offset;
  for (const e of entries) {
    const s = stored[e.blob]!;
    const record = centralRecord(Buffer.from(e.name), s.crc, s.packed, e.declared ?? s.size, s.offset);
    parts.push(record);
    offset += record.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(offset - dirAt, 12);
  end.writeUInt32LE(dirAt, 16);
  parts.push(end);
  return new Uint8Array(Buffer.concat(parts));
}

/** A zip bomb without recursion: `count` entries that all point at one deflate stream of `inflated` zero bytes, each declaring 100 bytes. */
export function overlappingBomb(count: number, inflated: number): Uint8Array<ArrayBuffer> {
  const entries = Array.from({ length: count }, (_, i) => ({
    name: i === 0 ? "manifest.csv" : `f${i}.csv`,
    blob: 0,
    declared: 100,
  }));
  return craftZip([{ name: "manifest.csv", bytes: new Uint8Array(inflated) }], entries);
}
