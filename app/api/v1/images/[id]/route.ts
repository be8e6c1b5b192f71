import type { NextRequest } from "next/server";
import { serveImage } from "@/features/scenes/server/image-route";

export const runtime = "nodejs";
export async function GET(req: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  return serveImage(req, (await params).id);
}
