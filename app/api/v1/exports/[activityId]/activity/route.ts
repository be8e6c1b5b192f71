import type { NextRequest } from "next/server";
import { activityFileExport } from "@/features/activities/server/export";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return activityFileExport(req, (await params).activityId);
}
