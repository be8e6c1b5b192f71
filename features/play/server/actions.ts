"use server";
import { z } from "zod";
import { type ActionResult, fail, ok } from "@/platform/errors";
import { defineSchoolAction, type SchoolCtx } from "@/features/people/server/school-action";
import {
  gameViewInput,
  goToSceneInput,
  pacingInput,
  sessionRef,
  startSessionInput,
  TIMER_MAX_SECONDS,
  TIMER_MIN_SECONDS,
} from "../shared/schema";
import { WORD_KEY_MAX } from "@/features/scenes/shared/word-cloud";
import { studentAnswerNow } from "./grid-queries";
import { setPacing } from "./pacing-commands";
import {
  endSession,
  goToScene,
  setGameView,
  setSceneLocked,
  setSceneRevealed,
  setSessionFlags,
  setSessionPaused,
  setSessionTimer,
  setWordHidden,
  startSession,
} from "./session-commands";

/** Guide-screen actions: teachers on their school's activities, managers naming a school of their academy. */
const ref = sessionRef;
const guideAction = <S extends z.ZodType, T>(
  name: string,
  schema: S,
  run: (ctx: SchoolCtx, i: z.infer<S>) => Promise<ActionResult<T>>,
) => defineSchoolAction({ name, schema, roles: ["teacher", "manager"], run, revalidate: [] });

/** Starts the session for one class (or the whole school: `klass: null`). */
export const startSessionAction = guideAction("guide.start", startSessionInput, (ctx, i) =>
  startSession(ctx, i.activityId, i.klass, i.game),
);
/** A game session's leaderboard or podium on the projector (or the scene again), and its names. */
export const setGameViewAction = guideAction("guide.game", gameViewInput, (ctx, i) =>
  setGameView(ctx, i.activityId, { board: i.board, names: i.names }, i.sessionId),
);
export const goToSceneAction = guideAction("guide.scene", goToSceneInput, (ctx, i) =>
  goToScene(ctx, i.activityId, i.sceneId, i.sessionId),
);
export const setFlagsAction = guideAction(
  "guide.flags",
  ref.extend({
    showResults: z.boolean().optional(),
    showNames: z.boolean().optional(),
    starredOnly: z.boolean().optional(),
  }),
  (ctx, i) =>
    setSessionFlags(
      ctx,
      i.activityId,
      { showResults: i.showResults, showNames: i.showNames, starredOnly: i.starredOnly },
      i.sessionId,
    ),
);
export const setPausedAction = guideAction("guide.pause", ref.extend({ paused: z.boolean() }), (ctx, i) =>
  setSessionPaused(ctx, i.activityId, i.paused, i.sessionId),
);
/** A countdown of 5 s to 1 hour on the current scene, or `seconds: null` to stop it. */
export const setTimerAction = guideAction(
  "guide.timer",
  ref.extend({
    seconds: z.number().int().min(TIMER_MIN_SECONDS).max(TIMER_MAX_SECONDS).nullable(),
    locks: z.boolean().default(false),
  }),
  (ctx, i) =>
    setSessionTimer(ctx, i.activityId, i.seconds === null ? null : { seconds: i.seconds, locks: i.locks }, i.sessionId),
);
export const setLockedAction = guideAction("guide.lock", ref.extend({ locked: z.boolean() }), (ctx, i) =>
  setSceneLocked(ctx, i.activityId, i.locked, i.sessionId),
);
/** 「正解を見せる」: the current scene's key and each student's own ○/×, or hidden again. */
export const setRevealedAction = guideAction("guide.reveal", ref.extend({ revealed: z.boolean() }), (ctx, i) =>
  setSceneRevealed(ctx, i.activityId, i.revealed, i.sessionId),
);
/** A word cloud's 「隠す」: one word (by its key) hidden from the class on the current scene, or shown again. */
export const setWordHiddenAction = guideAction(
  "guide.word",
  ref.extend({ key: z.string().min(1).max(WORD_KEY_MAX), hidden: z.boolean() }),
  (ctx, i) => setWordHidden(ctx, i.activityId, i.key, i.hidden, i.sessionId),
);
export const endSessionAction = guideAction("guide.end", ref, (ctx, i) => endSession(ctx, i.activityId, i.sessionId));
/** The grid's "show their answer": one of the school's students' latest answer to the current scene. */
export const studentAnswerAction = guideAction("guide.answer", ref.extend({ studentId: z.uuid() }), async (ctx, i) => {
  const found = await studentAnswerNow(ctx.schoolId, i.activityId, i.studentId, i.sessionId);
  return found ? ok(found) : fail("NOT_FOUND");
});
/** Pacing in self mode: students reach the first `open` scenes (null: all). */
export const setPacingAction = guideAction("activity.pacing", pacingInput, (ctx, i) =>
  setPacing(ctx, i.activityId, i.open),
);
