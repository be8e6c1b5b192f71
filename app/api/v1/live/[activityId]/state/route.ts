import type { NextRequest } from "next/server";
import { liveState } from "@/features/play/server/routes";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return liveState(req, (await params).activityId);
}
