import type { NextRequest } from "next/server";
import { projectorEvents } from "@/features/play/server/projector-routes";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ token: string }> }) {
  return projectorEvents(req, (await params).token);
}
