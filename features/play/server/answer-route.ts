import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { getActor } from "@/platform/auth/session";
import { readBodyLimited } from "@/platform/http";
import { answerReply, MAX_ANSWER_BODY } from "./answer-reply";
import { saveAnswer } from "./answer-save-commands";

/**
 * The answer API as a Next.js route handler (`next dev`, or `next start`
 * without the production server): the same reply as the production
 * server's endpoint (features/play/server/answer-endpoint.ts), see features/play/server/answer-reply.ts.
 */
export async function answerRoute(req: NextRequest): Promise<Response> {
  const actor = await getActor();
  const reply = await answerReply(
    {
      headers: req.headers,
      url: req.url,
      userId: actor && actor !== "disabled" ? actor.id : null,
      body: () => readBodyLimited(req, MAX_ANSWER_BODY),
    },
    saveAnswer,
  );
  return NextResponse.json(reply.body, { status: reply.status, headers: { "Cache-Control": "no-store" } });
}
