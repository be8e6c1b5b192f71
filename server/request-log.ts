import { randomUUID } from "node:crypto";
import type http from "node:http";
import { log, logContext } from "@/platform/ops/log";

/** An incoming X-Request-Id (from the reverse proxy) is kept only when it is this plain; anything else gets a new id. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The busy traffic of a class at the bell: every answer saved, every live
 * stream (its line is written when it ends, so a class reconnecting after a
 * network blip, or leaving the page, writes one per student), the pages'
 * static files and the load balancer's probes. These write their access line
 * at debug when they succeed or the client went away (499); a refusal is at
 * info and a server failure at error, like any other request's.
 */
const BUSY = [/^\/api\/v1\/answers$/, /^\/api\/v1\/live\//, /^\/_next\//, /^\/(healthz|readyz)$/, /^\/favicon\.ico$/];

export type AccessLevel = "debug" | "info" | "error";
export function accessLevel(path: string, status: number): AccessLevel {
  if (status >= 500) return "error";
  if ((status < 400 || status === 499) && BUSY.some((re) => re.test(path))) return "debug";
  return "info";
}

/**
 * Wraps the server's request handler: each request gets an id (the proxy's
 * X-Request-Id when it is safe, else a new one), answered as X-Request-Id and
 * carried by every log line written while it is handled (platform/ops/log.ts, an
 * AsyncLocalStorage that reaches Next's route handlers and server actions).
 * When the response ends, one access line: method, path without the query
 * (queries carry reset tokens and sign-in codes), status and milliseconds.
 */
export function withRequestLog(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const started = performance.now();
    const incoming = req.headers["x-request-id"];
    const reqId = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.headers["x-request-id"] = reqId;
    res.setHeader("X-Request-Id", reqId);
    const path = (req.url ?? "/").split("?")[0]!.slice(0, 200);
    let done = false;
    const access = () => {
      if (done) return;
      done = true;
      const status = res.writableFinished ? res.statusCode : 499; // 499: the client went away first
      const line = {
        event: "http",
        reqId,
        method: req.method,
        path,
        status,
        ms: Math.round(performance.now() - started),
      };
      log()[accessLevel(path, status)](line, "request");
    };
    res.once("finish", access);
    res.once("close", access);
    logContext().run({ reqId }, () => handler(req, res));
  };
}
