import type { NextRequest } from "next/server";
import { importSlidesRoute } from "@/features/activities/server/slides-route";

export const runtime = "nodejs";
export async function POST(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  return importSlidesRoute(req, (await params).id);
}
