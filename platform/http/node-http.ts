import type { IncomingMessage, ServerResponse } from "node:http";
import { staticSecurityHeaders } from "@/platform/security/headers";

/**
 * The plain node:http pieces of the endpoints the production server answers
 * before Next.js sees the request (features/play/server/answer-endpoint.ts,
 * features/play/server/advance-endpoint.ts): a size-limited body, the Cookie header
 * parsed, the headers as the shared reply logic reads them, and a JSON reply
 * with the app's own headers (next.config.ts). Framework-free.
 */

/** The body as text, or null past `max` bytes (a declared length over it is refused before reading). */
export function readBody(req: IncomingMessage, max: number): Promise<string | null> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      size += chunk.byteLength;
      if (size > max) {
        over = true;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", reject);
  });
}

export function cookiesOf(header: string | undefined): { name: string; value: string }[] {
  if (!header) return [];
  return header.split(";").flatMap((part) => {
    const at = part.indexOf("=");
    if (at < 0) return [];
    return [{ name: part.slice(0, at).trim(), value: part.slice(at + 1).trim() }];
  });
}

/** What a reply reads of the request's headers (node's own object: no WHATWG Headers built per request). */
export function headersOf(req: IncomingMessage): Pick<Headers, "get"> {
  return {
    get(name: string) {
      const value = req.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}

/** A JSON reply, never cached, with the headers every response of the app carries. */
export function jsonSender(production: boolean): (res: ServerResponse, status: number, body: unknown) => void {
  const staticHeaders: Record<string, string> = Object.fromEntries(
    staticSecurityHeaders(production).map((h) => [h.key, h.value]),
  );
  return (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...staticHeaders,
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
      "Content-Length": Buffer.byteLength(text),
    });
    res.end(text);
  };
}

/**
 * A route the production server (server/main.ts) serves before Next.js sees it: the answer
 * save, the teacher's "next", a student's event stream. `close` finishes what is in progress
 * and closes its database pool (at shutdown).
 */
export interface NodeEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** What such an endpoint is made from: the session secret, the mode and its pool's size (platform/db/pools.ts builds the pool). */
export interface EndpointOptions {
  authSecret: string;
  production: boolean;
  poolSize?: number;
  /** another database than the app's (DATABASE_URL): a test's */
  databaseUrl?: string;
}
