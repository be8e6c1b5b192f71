import type { NextRequest } from "next/server";
import { rosterExportRoute } from "@/lib/roster/route";

export const runtime = "nodejs";
export const GET = (req: NextRequest) => rosterExportRoute(req);
