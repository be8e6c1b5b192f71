import type { NextRequest } from "next/server";
import { gameViewRoute } from "@/features/play/server/routes";

export const dynamic = "force-dynamic";

export async function POST(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return gameViewRoute(req, (await params).activityId);
}
