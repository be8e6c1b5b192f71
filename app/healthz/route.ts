/** Liveness: the process is up and serving (no database, no session). platform/ops/health.ts */
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
