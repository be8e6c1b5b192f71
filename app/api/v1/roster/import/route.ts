import type { NextRequest } from "next/server";
import { rosterImportRoute } from "@/features/rostering/server/route";

export const runtime = "nodejs";
export const POST = (req: NextRequest) => rosterImportRoute(req);
