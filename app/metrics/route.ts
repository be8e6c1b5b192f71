import { metricsResponse } from "@/platform/ops/metrics-route";

/** Prometheus metrics, for a scraper holding METRICS_TOKEN (platform/ops/metrics-route.ts; README.md "Metrics"). */
export const dynamic = "force-dynamic";

export function GET(req: Request) {
  return metricsResponse(req.headers.get("authorization"));
}
