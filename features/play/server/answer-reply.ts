import { countAnswerRefused } from "@/platform/ops/metrics";
import { sameOrigin } from "@/platform/security/headers";
import { saveAnswerInput, type SaveAnswerInput } from "../shared/answer-schema";
import type { SaveResult } from "./answer-writer";

/** The most an answer request may carry (bytes): a long reason in Japanese is far below. */
export const MAX_ANSWER_BODY = 64 * 1024;

export interface AnswerRequest {
  headers: Pick<Headers, "get">;
  url: string;
  /** The session's user id (not yet checked against the database), or null. */
  userId: string | null;
  /** The body as text, or null when it is larger than MAX_ANSWER_BODY. */
  body: () => Promise<string | null>;
}

/**
 * POST /api/v1/answers, whoever serves it (the Next.js route handler, or the
 * production server's endpoint): JSON in (`saveAnswerInput`), JSON out. 200
 * with the stored revision (also for a retry or an older revision);
 * 400/403/404/409 with a code and reason for a refusal the client must show
 * ('failed to save answer'); 401 when signed out or disabled, or when the
 * answer names another respondent than the session's user; 413 past the
 * size limit. Anything else (5xx, network) means "try again": the client
 * keeps the answer queued.
 */
export async function answerReply(
  req: AnswerRequest,
  save: (userId: string, input: SaveAnswerInput) => Promise<SaveResult>,
): Promise<{ status: number; body: unknown }> {
  let saved = false;
  const reply = await replyOf(req, (userId, input) => {
    saved = true; // its outcome is counted with the save (observeAnswerSave)
    return save(userId, input);
  });
  if (!saved && reply.status >= 400 && reply.status < 500) countAnswerRefused();
  return reply;
}

async function replyOf(
  req: AnswerRequest,
  save: (userId: string, input: SaveAnswerInput) => Promise<SaveResult>,
): Promise<{ status: number; body: unknown }> {
  if (!sameOrigin(req.headers, req.url)) return { status: 403, body: { ok: false, code: "FORBIDDEN" } };
  const signedOut = { status: 401, body: { ok: false, code: "UNAUTHENTICATED" } };
  if (!req.userId) return signedOut;
  const text = await req.body();
  if (text === null) return { status: 413, body: { ok: false, code: "VALIDATION", reason: "tooLong" } };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 400, body: { ok: false, code: "VALIDATION", reason: "invalidAnswer" } };
  }
  const parsed = saveAnswerInput.safeParse(body);
  if (!parsed.success) return { status: 400, body: { ok: false, code: "VALIDATION", reason: "invalidAnswer" } };
  // the answer of someone else than the session's user (a shared tablet): as for them signed out, it waits for its owner
  if (parsed.data.respondentId !== undefined && parsed.data.respondentId !== req.userId) return signedOut;
  const result = await save(req.userId, parsed.data);
  // the session named someone who is gone or disabled: the same reply as no session
  if (!result.ok && result.status === 401) return signedOut;
  return { status: result.ok ? 200 : result.status, body: result };
}
