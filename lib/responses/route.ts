import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { getActor } from "@/lib/auth/session";
import { readBodyLimited } from "@/lib/http";
import { sameOrigin } from "@/lib/security/headers";
import { saveAnswerInput } from "./schema";
import { saveAnswer } from "./save";

const MAX_BODY = 64 * 1024;
const json = (status: number, body: unknown) => NextResponse.json(body, { status, headers: { "Cache-Control": "no-store" } });

/**
 * The answer API: JSON in (`saveAnswerInput`), JSON out. 200 with the stored
 * revision (also for a retry or an older revision); 400/403/404/409 with a
 * code and reason for a refusal the client must show ('failed to save
 * answer'); 401 when signed out. Anything else (5xx, network) means "try
 * again": the client keeps the answer queued.
 */
export async function answerRoute(req: NextRequest): Promise<Response> {
  if (!sameOrigin(req.headers, req.url)) return json(403, { ok: false, code: "FORBIDDEN" });
  const actor = await getActor();
  if (!actor || actor === "disabled") return json(401, { ok: false, code: "UNAUTHENTICATED" });
  const text = await readBodyLimited(req, MAX_BODY);
  if (text === null) return json(413, { ok: false, code: "VALIDATION", reason: "invalidAnswer" });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json(400, { ok: false, code: "VALIDATION", reason: "invalidAnswer" });
  }
  const parsed = saveAnswerInput.safeParse(body);
  if (!parsed.success) return json(400, { ok: false, code: "VALIDATION", reason: "invalidAnswer" });
  const result = await saveAnswer(actor, parsed.data);
  if (!result.ok) return json(result.status, result);
  return json(200, result);
}
