import { readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { metrics } from "./metrics";
import { type RoutesManifest, routeLabel, routeTable } from "./route-label";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Counts and times every request of the production server (server/main.ts) in
 * http_requests_total / http_request_duration_seconds, labelled with its route pattern
 * (platform/ops/route-label.ts), method and status, when its response ends or its connection
 * closes ("aborted": the client went before the end, as an event stream's always does).
 * `root`: the app's folder, whose .next/routes-manifest.json and public/ name the routes.
 */
export function httpInstrument(
  root: string,
  extraRoutes: string[] = [],
): (req: IncomingMessage, res: ServerResponse) => void {
  const manifest = JSON.parse(readFileSync(path.join(root, ".next", "routes-manifest.json"), "utf8")) as RoutesManifest;
  const publicFiles = readdirSync(path.join(root, "public"), { withFileTypes: true })
    .filter((f) => f.isFile())
    .map((f) => `/${f.name}`);
  const table = routeTable(manifest, [...publicFiles, ...extraRoutes]);
  const { requests, duration } = metrics().http;
  return (req, res) => {
    const started = performance.now();
    const route = routeLabel(table, req.url);
    const method = METHODS.has(req.method ?? "") ? req.method! : "other";
    res.once("close", () => {
      const status = res.writableFinished ? String(res.statusCode) : "aborted";
      requests.inc({ route, method, status });
      duration.observe({ route, method }, (performance.now() - started) / 1000);
    });
  };
}
