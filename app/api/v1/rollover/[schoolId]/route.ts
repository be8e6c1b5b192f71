import type { NextRequest } from "next/server";
import { rolloverSetRoute } from "@/features/rostering/server/rollover-route";

export const runtime = "nodejs";
export const POST = async (req: NextRequest, { params }: { params: Promise<{ schoolId: string }> }) =>
  rolloverSetRoute(req, (await params).schoolId);
