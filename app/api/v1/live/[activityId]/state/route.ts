import type { NextRequest } from "next/server";
import { liveState } from "@/lib/live/routes";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return liveState(req, (await params).activityId);
}
