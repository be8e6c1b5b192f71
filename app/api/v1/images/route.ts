import type { NextRequest } from "next/server";
import { uploadImage } from "@/lib/images/route";

export const runtime = "nodejs";
export const POST = (req: NextRequest) => uploadImage(req);
