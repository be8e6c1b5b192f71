import type { ActionResult } from "@/platform/errors";

/**
 * "Next scene" from the guide screen: POST /api/v1/live/{activityId}/scene
 * (the server action goToSceneAction's answer as JSON, features/play/server/routes.ts;
 * the production server answers it before Next.js, features/play/server/advance-endpoint.ts).
 * A reply that is not the app's (a proxy's error page) throws: the runner shows INTERNAL.
 */
export async function advanceScene(
  activityId: string,
  input: { sceneId: string; schoolId?: string; sessionId?: string },
): Promise<ActionResult<null>> {
  const res = await fetch(`/api/v1/live/${encodeURIComponent(activityId)}/scene`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(input),
    credentials: "same-origin",
    cache: "no-store",
  });
  return (await res.json()) as ActionResult<null>;
}
