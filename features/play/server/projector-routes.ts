import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { problem } from "@/platform/http";
import { sseResponse } from "@/features/play/server/sse";
import { takeStreamSlot } from "@/features/play/server/stream-slots";
import { sendImage } from "@/features/scenes/server/image-route";
import { projectorImageOf, projectorLinkOf, projectorState } from "./projector-queries";

/**
 * GET /api/v1/projector/{token}/events: a projector page's live state, no sign-in — the token is
 * the capability (docs/adr/0064-projector-links.md; docs/security.md "Known limits"). 410 once
 * the link opens nothing (unknown, revoked, another's, the lesson over); a place among the capped
 * streams, where all the projector streams of one session count as one user's (LIVE_STREAMS_PER_USER:
 * 429 over it), so no lesson's links can take the server's streams (LIVE_STREAMS_MAX) from other schools.
 * The stream ends at the next heartbeat after the link stops working; until then it says "ended".
 */
export async function projectorEvents(req: NextRequest, token: string): Promise<Response> {
  const link = await projectorLinkOf(token);
  if (!link) return problem(410, "NOT_FOUND");
  const slot = takeStreamSlot(`projector:${link.sessionId}`);
  if (!slot.ok) return slot.refusal;
  return sseResponse(req.signal, {
    topic: `activity:${link.activityId}`,
    kinds: ["state", "counts"],
    release: slot.release,
    stillValid: async () => (await projectorLinkOf(token)) !== null,
    snapshot: () => projectorState(token),
  });
}

/** GET /api/v1/projector/{token}/state: the same as JSON, for a screen whose network cannot hold a stream (410 once over). */
export async function projectorStateRoute(token: string): Promise<Response> {
  const state = await projectorState(token);
  if (state.status === "ended") return problem(410, "NOT_FOUND");
  return NextResponse.json(state, { headers: { "Cache-Control": "no-store" } });
}

/**
 * GET /api/v1/projector/{token}/images/{id}: a picture of the link's lesson, no sign-in (the token
 * is the capability): only the images placed on the scenes of the link's activity (any other id,
 * another activity's of the same school included, is 404), and 410 once the link opens nothing. The
 * browser asks again each time (no-cache), so a stopped link stops its pictures too.
 */
export async function projectorImage(req: Request, token: string, id: string): Promise<Response> {
  const link = await projectorLinkOf(token);
  if (!link) return problem(410, "NOT_FOUND");
  const image = await projectorImageOf(link, id);
  if (!image) return problem(404, "NOT_FOUND");
  return sendImage(req, image, "private, no-cache");
}
