import type { NextRequest } from "next/server";
import { schoolEvents } from "@/features/play/server/routes";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest) {
  return schoolEvents(req);
}
