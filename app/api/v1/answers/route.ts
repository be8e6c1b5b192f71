import type { NextRequest } from "next/server";
import { answerRoute } from "@/features/play/server/answer-route";

export const dynamic = "force-dynamic";

/** POST /api/v1/answers: the versioned answer API (a queued answer still reaches it after a new deploy). */
export async function POST(req: NextRequest) {
  return answerRoute(req);
}
