import { z } from "zod";

/** POST /api/v1/answers: one answer to one scene (the answer itself is checked against the scene's schema). */
export const saveAnswerInput = z.object({
  activityId: z.uuid(),
  sceneId: z.uuid(),
  answer: z.unknown(),
  /** Increases with every edit on the device (starting from the stored revision): an older one never overwrites a newer one. */
  clientRevision: z.number().int().min(1).max(2_000_000_000),
  /** Made by the client per save; a retry of the same save carries the same key and is answered the same. */
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  mode: z.enum(["self", "guide"]),
  /**
   * Whose answer it is (the user who typed it, as the device's queue records
   * it): on a shared tablet, an answer queued before a sign-out must never be
   * stored as the next user's. Optional for answers queued before it existed.
   */
  respondentId: z.uuid().optional(),
});
export type SaveAnswerInput = z.infer<typeof saveAnswerInput>;

/** Why a save is refused, as the client shows it ('failed to save answer' with the reason). */
export { SAVE_REFUSALS, type SaveRefusal } from "./answer-refusals";
