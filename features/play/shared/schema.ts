import { z } from "zod";
import { GAME_BOARD_VIEWS } from "./game";

/** The guide-screen actions' inputs (features/play/server/actions.ts): an activity, and the school when a manager acts. */
export const guideRef = z.object({ schoolId: z.uuid().optional(), activityId: z.uuid() });
/**
 * A control of the running session: the session it addresses, when several classes run the activity at once
 * (without it: the activity's only running session; docs/adr/0061-several-classes-at-once.md).
 */
export const sessionRef = guideRef.extend({ sessionId: z.uuid().optional() });
/** The class (組) a session is run for, as the students' data names it (features/people/shared/schema.ts); null: the whole school. */
export const sessionClass = z.object({
  grade: z.number().int().min(1).max(12),
  className: z.string().trim().min(1).max(10),
});
export type SessionClass = z.infer<typeof sessionClass>;
/** `game`: played for points (null: an ordinary lesson), its leaderboard with team totals and/or names. */
export const startSessionInput = guideRef.extend({
  klass: sessionClass.nullable().default(null),
  game: z.object({ teams: z.boolean(), names: z.boolean() }).strict().nullable().default(null),
});
/** The game's projector between questions (features/play/shared/game.ts) and its names. */
export const gameViewInput = sessionRef.extend({
  board: z.enum(GAME_BOARD_VIEWS).nullable().optional(),
  names: z.boolean().optional(),
});
/** Pacing in self mode: the first `open` scenes (1 or more), or all (null). */
export const pacingInput = guideRef.extend({ open: z.number().int().min(1).max(10_000).nullable() });
/** "Next scene" (the server action and the production server's endpoint, features/play/server/advance-endpoint.ts). */
export const goToSceneInput = sessionRef.extend({ sceneId: z.uuid() });
export type GoToSceneInput = z.infer<typeof goToSceneInput>;

/** A scene's countdown: 5 s to an hour; the presets the guide screen offers (seconds). */
export const TIMER_MIN_SECONDS = 5;
export const TIMER_MAX_SECONDS = 3600;
export const TIMER_PRESETS = [30, 60, 120, 180, 300] as const;
