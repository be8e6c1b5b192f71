import type { NextRequest } from "next/server";
import { rosterExportRoute } from "@/features/rostering/server/route";

export const runtime = "nodejs";
export const GET = (req: NextRequest) => rosterExportRoute(req);
