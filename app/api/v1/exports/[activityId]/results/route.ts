import type { NextRequest } from "next/server";
import { resultsExport } from "@/features/results/server/export";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return resultsExport(req, (await params).activityId);
}
