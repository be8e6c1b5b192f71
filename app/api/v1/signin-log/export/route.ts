import type { NextRequest } from "next/server";
import { signinLogExportRoute } from "@/features/people/server/signin-log-route";

export const runtime = "nodejs";
export const GET = (req: NextRequest) => signinLogExportRoute(req);
