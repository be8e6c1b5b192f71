import "server-only";
import fs from "node:fs";
import { NextResponse } from "next/server";
import type { ErrorCode } from "@/platform/errors";

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

const declaredLength = (req: Request) => Number(req.headers.get("content-length") ?? "0") || 0;

/** Resolves after `ms`. */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type BodyLimits = { max: number; ms: number; bytesPerSecond?: number };

/**
 * Reads a request's body chunk by chunk, handing each to `take` (awaited: a slow sink slows the read;
 * a word it returns stops the read there and is the answer): "tooLarge" past `max` bytes (a declared
 * Content-Length over it before reading), "tooSlow" when the whole body has not arrived within `ms`
 * (the rest is not read). `bytesPerSecond`: the body is read no faster (the client waits on TCP
 * meanwhile): a large upload from the same building's network would otherwise take the event loop for
 * the whole of its arrival, and every lesson's requests would wait behind its chunks.
 */
async function readBody<Stop extends string = never>(
  req: Request,
  take: (chunk: Uint8Array) => Stop | void | Promise<Stop | void>,
  { max, ms, bytesPerSecond = Infinity }: BodyLimits,
): Promise<"done" | "tooLarge" | "tooSlow" | Stop> {
  if (declaredLength(req) > max) return "tooLarge";
  if (!req.body) return "done";
  const reader = req.body.getReader();
  let late = false;
  const timer = Number.isFinite(ms)
    ? setTimeout(() => ((late = true), void reader.cancel().catch(() => undefined)), ms)
    : undefined;
  const started = performance.now();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) return "tooSlow";
      if (done) return "done";
      size += value.byteLength;
      const stop = size > max ? "tooLarge" : await take(value);
      if (stop) {
        await reader.cancel().catch(() => undefined);
        return stop;
      }
      const ahead = (size / bytesPerSecond) * 1000 - (performance.now() - started);
      if (ahead >= 10) await pause(ahead);
    }
  } catch (error) {
    if (late) return "tooSlow";
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** readBytesLimited with a deadline: "tooSlow" when the whole body has not arrived within `ms`, "tooLarge" past `max` bytes. */
export async function readBytesWithin(req: Request, max: number, ms: number): Promise<Buffer | "tooLarge" | "tooSlow"> {
  const chunks: Uint8Array[] = [];
  const end = await readBody<never>(req, (chunk) => void chunks.push(chunk), { max, ms });
  return end === "done" ? Buffer.concat(chunks) : end;
}

/**
 * A request's body written to `file` (created, readable by this user only) as it arrives, never held
 * whole in memory (readBody's limits): the bytes written, or why not (the file may hold a part then).
 */
export async function saveBodyWithin(
  req: Request,
  file: string,
  limits: BodyLimits,
): Promise<number | "tooLarge" | "tooSlow"> {
  if (declaredLength(req) > limits.max) return "tooLarge"; // before a file is made
  const handle = await fs.promises.open(file, "wx", 0o600);
  let written = 0;
  try {
    const end = await readBody<never>(
      req,
      async (chunk) => {
        await handle.write(chunk);
        written += chunk.byteLength;
      },
      limits,
    );
    return end === "done" ? written : end;
  } finally {
    await handle.close();
  }
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
export async function readUploadBytes(
  req: Request,
  max: number,
  cap = MAX_UPLOAD_BYTES_IN_FLIGHT,
): Promise<UploadBytes> {
  const declared = declaredLength(req);
  if (declared > max) return { ok: false, problem: "tooLarge" };
  const counter = inFlight();
  if (counter.bytes + declared > cap) return { ok: false, problem: "busy" };
  counter.bytes += declared;
  let counted = declared;
  const chunks: Uint8Array[] = [];
  let held = 0;
  try {
    const end = await readBody(
      req,
      (chunk) => {
        held += chunk.byteLength;
        const extra = Math.max(0, held - counted);
        if (counter.bytes + extra > cap) return "busy";
        counter.bytes += extra;
        counted += extra;
        chunks.push(chunk);
      },
      { max, ms: Infinity },
    );
    // no deadline here (the server's request timeout ends a stalled upload): never "tooSlow"
    return end === "done"
      ? { ok: true, bytes: Buffer.concat(chunks) }
      : { ok: false, problem: end === "busy" ? "busy" : "tooLarge" };
  } finally {
    counter.bytes -= counted;
  }
}

/** A request's body as UTF-8 text, or null when it is larger than `max` bytes (readBytesLimited). */
export async function readBodyLimited(req: Request, max: number): Promise<string | null> {
  const bytes = await readBytesLimited(req, max);
  return bytes === null ? null : bytes.toString("utf8");
}
