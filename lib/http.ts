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

/** A request's body as UTF-8 text, or null when it is larger than `max` bytes (readBytesLimited). */
export async function readBodyLimited(req: Request, max: number): Promise<string | null> {
  const bytes = await readBytesLimited(req, max);
  return bytes === null ? null : bytes.toString("utf8");
}
