import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { env } from "@/platform/env";
import { problem } from "@/platform/http";
import { metrics } from "./metrics";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether `authorization` is "Bearer <token>": compared in constant time (digests of equal length, whatever was sent). */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const sent = /^Bearer (.+)$/i.exec(authorization?.trim() ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}

/**
 * GET /metrics in Prometheus text format (platform/ops/metrics.ts). A route handler rather
 * than a path of server/main.ts: it is then served the same way by `next start`,
 * listed with the other route handlers (tests/e2e/matrix.spec.ts), and reads the one
 * registry that the server script and every route bundle share through globalThis.
 * Off (404) without METRICS_TOKEN; without the token or with another
 * one, 401 and no metric. Never cached.
 */
export async function metricsResponse(authorization: string | null): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) return problem(404, "NOT_FOUND");
  if (!bearerMatches(authorization, token)) {
    const refused = problem(401, "UNAUTHENTICATED");
    refused.headers.set("WWW-Authenticate", 'Bearer realm="metrics"');
    return refused;
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
  });
}
