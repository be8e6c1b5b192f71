import type { NextRequest } from "next/server";
import { xapiExport } from "@/features/lti/server/xapi-export";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ activityId: string }> }) {
  return xapiExport(req, (await params).activityId);
}
