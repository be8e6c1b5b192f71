import { readiness } from "@/platform/ops/health";

/** Readiness: the database answers, its migrations are current and the live bus listens; 503 otherwise. platform/ops/health.ts */
export const dynamic = "force-dynamic";

export async function GET() {
  const state = await readiness();
  return Response.json(
    {
      status: state.ready ? "ok" : "unavailable",
      database: state.database,
      migrations: state.migrations,
      live: state.live,
    },
    { status: state.ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}
