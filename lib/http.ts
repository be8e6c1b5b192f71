import "server-only";
import { NextResponse } from "next/server";
import type { ErrorCode } from "@/lib/errors";

/** A route handler's refusal: `{ ok: false, code }` with its status, never cached. */
export function problem(status: number, code: ErrorCode): NextResponse {
  return NextResponse.json({ ok: false, code }, { status, headers: { "Cache-Control": "no-store" } });
}

/**
 * A request's body as bytes, or null when it is larger than `max` bytes: a
 * declared Content-Length over the limit is refused before reading, and the
 * stream is read only up to the limit (a client that lies about the length,
 * or sends none, cannot make the server buffer more).
 */
export async function readBytesLimited(req: Request, max: number): Promise<Buffer | null> {
  const read = await readBytesWithin(req, max, Infinity);
  return read === "tooLarge" ? null : (read as Buffer);
}

/**
 * readBytesLimited with a deadline: "tooSlow" when the whole body has not arrived within `ms`
 * (the rest is not read), "tooLarge" past `max` bytes.
 */
export async function readBytesWithin(req: Request, max: number, ms: number): Promise<Buffer | "tooLarge" | "tooSlow"> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > max) return "tooLarge";
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  let late = false;
  const timer = Number.isFinite(ms) ? setTimeout(() => ((late = true), void reader.cancel().catch(() => undefined)), ms) : undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) return "tooSlow";
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => undefined);
        return "tooLarge";
      }
      chunks.push(value);
    }
  } catch (error) {
    if (late) return "tooSlow";
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

/**
 * The bytes of upload bodies being read right now, across all connections of the process (one
 * count, kept on globalThis so that every route bundle of Next.js shares it).
 */
const shared = globalThis as unknown as { uploadBytesInFlight?: { bytes: number } };
const inFlight = () => (shared.uploadBytesInFlight ??= { bytes: 0 });
export const uploadBytesInFlight = (): number => inFlight().bytes;

/**
 * At most this many bytes of upload bodies are held while they arrive, in all: a client that
 * sends most of a body and then stalls holds its part until the request times out, so without a
 * cap a hundred such uploads held hundreds of MB. Eight whole 5 MiB images fit.
 */
export const MAX_UPLOAD_BYTES_IN_FLIGHT = 40 * 1024 * 1024;

export type UploadBytes = { ok: true; bytes: Buffer } | { ok: false; problem: "tooLarge" | "busy" };

/**
 * An upload's body (readBytesLimited's checks), held against MAX_UPLOAD_BYTES_IN_FLIGHT across
 * connections: the declared Content-Length is set aside before reading (the browser declares
 * it; first come, first served), and bytes past it are counted as they arrive. An upload that
 * does not fit is refused at once ("busy": the client is asked to try again shortly). What it
 * held is given back when the read ends, whichever way (done, refused, or the connection closed
 * or timed out).
 */
export async function readUploadBytes(req: Request, max: number, cap = MAX_UPLOAD_BYTES_IN_FLIGHT): Promise<UploadBytes> {
  const declared = Number(req.headers.get("content-length") ?? "0") || 0;
  if (declared > max) return { ok: false, problem: "tooLarge" };
  if (!req.body) return { ok: true, bytes: Buffer.alloc(0) };
  const counter = inFlight();
  if (counter.bytes + declared > cap) return { ok: false, problem: "busy" };
  counter.bytes += declared;
  let counted = declared;
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let held = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { ok: true, bytes: Buffer.concat(chunks) };
      held += value.byteLength;
      const extra = Math.max(0, held - counted);
      const problem = held > max ? "tooLarge" : counter.bytes + extra > cap ? "busy" : null;
      if (problem) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, problem };
      }
      counter.bytes += extra;
      counted += extra;
      chunks.push(value);
    }
  } finally {
    counter.bytes -= counted;
  }
}

/** A request's body as UTF-8 text, or null when it is larger than `max` bytes (readBytesLimited). */
export async function readBodyLimited(req: Request, max: number): Promise<string | null> {
  const bytes = await readBytesLimited(req, max);
  return bytes === null ? null : bytes.toString("utf8");
}
