import type { ActionResult } from "@/platform/errors";
import type { GameBoardView } from "@/features/play/shared/game";

/** A guide control posted as JSON to `/api/v1/live/{activityId}/{control}`; a reply that is not the app's throws. */
async function postControl(activityId: string, control: "scene" | "game", input: object): Promise<ActionResult<null>> {
  const res = await fetch(`/api/v1/live/${encodeURIComponent(activityId)}/${control}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(input),
    credentials: "same-origin",
    cache: "no-store",
  });
  return (await res.json()) as ActionResult<null>;
}

/**
 * "Next scene" from the guide screen: POST /api/v1/live/{activityId}/scene
 * (the server action goToSceneAction's answer as JSON, features/play/server/routes.ts;
 * the production server answers it before Next.js, features/play/server/advance-endpoint.ts).
 * A reply that is not the app's (a proxy's error page) throws: the runner shows INTERNAL.
 */
export function advanceScene(
  activityId: string,
  input: { sceneId: string; schoolId?: string; sessionId?: string },
): Promise<ActionResult<null>> {
  return postControl(activityId, "scene", input);
}

/**
 * A game's leaderboard, podium (or the scene again) and names on the projector: POST
 * /api/v1/live/{activityId}/game (setGameViewAction's answer as JSON; the production server answers it
 * before Next.js as it does "next"). A reply that is not the app's throws.
 */
export function postGameView(
  activityId: string,
  input: { board?: GameBoardView | null; names?: boolean; schoolId?: string; sessionId?: string },
): Promise<ActionResult<null>> {
  return postControl(activityId, "game", input);
}
