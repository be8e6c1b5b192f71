import type { NextRequest } from "next/server";
import { researchExport } from "@/features/results/server/export";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return researchExport(req, (await params).activityId);
}
