import type { NextRequest } from "next/server";
import { uploadImage } from "@/features/scenes/server/image-route";

export const runtime = "nodejs";
export const POST = (req: NextRequest) => uploadImage(req);
