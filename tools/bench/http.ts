/**
 * The bench's clients: session cookies as next-auth makes them, server
 * actions called the way the browser calls them, SSE streams read line by
 * line, and percentiles.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { SESSION_COOKIE } from "@/platform/auth/cookies";
import { ROOT } from "../../scripts/lib/prepare-db";
import { SECRETS } from "./app";

export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** The session cookie next-auth sets after a sign-in (http: no `__Secure-` prefix). */
export async function sessionCookie(userId: string, role: "student" | "teacher" | "manager"): Promise<string> {
  const salt = SESSION_COOKIE;
  const token = await encode({ token: { sub: userId, role }, secret: SECRETS.AUTH_SECRET, salt, maxAge: 60 * 60 * 12 });
  return `${salt}=${token}`;
}

interface ActionManifest {
  node: Record<string, { filename?: string; exportedName?: string; workers?: Record<string, unknown> }>;
}
const readActionManifest = (): ActionManifest =>
  JSON.parse(readFileSync(path.join(ROOT, ".next/server/server-reference-manifest.json"), "utf8")) as ActionManifest;

/** A server action's id in the production build (as the client bundle knows it). */
export function actionId(filename: string, exportedName: string, manifest = readActionManifest()): string {
  const hit = Object.entries(manifest.node).find(([, v]) => v.filename === filename && v.exportedName === exportedName);
  if (!hit) throw new Error(`no server action ${filename}#${exportedName} in the build`);
  return hit[0];
}

/** Whether the build's route `worker` (`app/dashboard/…/[activityId]/page`) is the page at `pagePath`. */
export function workerServesPath(worker: string, pagePath: string): boolean {
  if (!worker.endsWith("/page")) return false;
  const segments = worker
    .slice("app".length, -"/page".length)
    .split("/")
    .filter((s) => s && !/^\(.*\)$/.test(s));
  const pattern = segments
    .map((s) =>
      /^\[\[\.\.\./.test(s)
        ? "(?:/.+)?"
        : /^\[\.\.\./.test(s)
          ? "/.+"
          : /^\[.+\]$/.test(s)
            ? "/[^/]+"
            : `/${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
    )
    .join("");
  return new RegExp(`^${pattern}/?$`).test(new URL(pagePath, "http://x").pathname);
}

/**
 * Refuses an action the page at `pagePath` does not serve. Next.js does not
 * refuse it: it forwards the request to the first route that has the action
 * (here a route handler, which does not run actions) and answers 200 `{}`
 * with nothing done — a bench step that "passed" without moving anyone.
 */
export function assertPageServesAction(id: string, pagePath: string, manifest = readActionManifest()): void {
  const entry = manifest.node[id];
  if (!entry) throw new Error(`server action ${id} is not in the build (a stale id?)`);
  const workers = Object.keys(entry.workers ?? {});
  if (!workers.some((w) => workerServesPath(w, pagePath))) {
    throw new Error(
      `server action ${entry.filename}#${entry.exportedName} is not served by ${pagePath} (its pages and routes: ${workers.join(", ") || "none"}); post it to a page that imports it, or use the endpoint the screen uses`,
    );
  }
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request over the keep-alive agent. A kept-alive connection the server
 * closed just as it was reused fails before any response: the request is sent
 * again on a new connection, as browsers do (Node's documented pattern).
 */
export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  retried = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (req.reusedSocket && error.code === "ECONNRESET" && !retried)
        request(url, options, true).then(resolve, reject);
      else reject(error);
    });
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
    req.end(options.body);
  });
}

/**
 * POST of a server action, as React's client does it (JSON-encoded
 * arguments), to a page that serves it (assertPageServesAction). The reply
 * must be the action's own (React's flight format): anything else throws.
 */
export async function callAction(
  baseUrl: string,
  pagePath: string,
  id: string,
  args: unknown[],
  cookie: string,
): Promise<Reply> {
  assertPageServesAction(id, pagePath);
  const reply = await request(`${baseUrl}${pagePath}`, {
    method: "POST",
    headers: {
      "Next-Action": id,
      "Content-Type": "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: new URL(baseUrl).origin,
      Cookie: cookie,
    },
    body: JSON.stringify(args),
  });
  if (reply.status === 200 && !String(reply.headers["content-type"]).startsWith("text/x-component")) {
    throw new Error(
      `server action ${id} on ${pagePath}: HTTP 200 but not the action's reply (${reply.headers["content-type"]}: ${reply.body.slice(0, 200)})`,
    );
  }
  return reply;
}

/**
 * The ActionResult an action's reply carries (`{ ok, … }`, a row of React's
 * flight format), or null when it carries none (a redirect, a crash).
 */
export function actionResult(reply: Pick<Reply, "body">): { ok: boolean; code?: string } | null {
  for (const line of reply.body.split("\n")) {
    const json = line.slice(line.indexOf(":") + 1);
    if (!json.startsWith("{")) continue;
    try {
      const value = JSON.parse(json) as { ok?: unknown; code?: unknown };
      if (typeof value.ok === "boolean")
        return { ok: value.ok, ...(typeof value.code === "string" ? { code: value.code } : {}) };
    } catch {
      // another row of the payload
    }
  }
  return null;
}

/** The action's reply said `{ ok: true }`; anything else (HTTP error, refusal, no result) throws, naming `what`. */
export function expectActionOk(reply: Reply, what: string): void {
  const result = actionResult(reply);
  if (reply.status !== 200 || !result?.ok) throw new Error(`${what}: HTTP ${reply.status} ${reply.body.slice(0, 300)}`);
}

/** The cookies a response sets, as one Cookie header value (name=value only). */
export function setCookies(reply: Reply): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of reply.headers["set-cookie"] ?? []) {
    const [pair] = line.split(";");
    const i = pair!.indexOf("=");
    out[pair!.slice(0, i)] = pair!.slice(i + 1);
  }
  return out;
}

export interface SseClient {
  /** Resolves when the response headers arrived with 200. */
  ready: Promise<void>;
  close: () => void;
}

/** An EventSource in miniature: calls `onEvent(event, data, receivedAt)` for every complete event. */
export function openSse(
  url: string,
  cookie: string,
  onEvent: (event: string, data: string, at: number) => void,
): SseClient {
  let req: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    req = http.get(url, { headers: { Cookie: cookie, Accept: "text/event-stream" }, agent }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`stream ${url}: HTTP ${res.statusCode}`));
      }
      resolve();
      res.setEncoding("utf8");
      let buffer = "";
      res.on("data", (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = "message";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (data) onEvent(event, data, at);
        }
      });
      res.on("error", () => undefined);
    });
    req.on("error", reject);
  });
  ready.catch(() => undefined);
  return { ready, close: () => req.destroy() };
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
/** The median (the mean of the two middle values for an even count). */
export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** Runs `tasks` with at most `limit` at a time. */
export async function pool<T>(
  items: T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (i < items.length) {
        const index = i++;
        await task(items[index]!, index);
      }
    }),
  );
}
