import type { NextRequest } from "next/server";
import { rosterImportRoute } from "@/lib/roster/route";

export const runtime = "nodejs";
export const POST = (req: NextRequest) => rosterImportRoute(req);
