"use server";
import { z } from "zod";
import { defineAction } from "@/platform/http/action";
import { fail, ok } from "@/platform/errors";
import { liveFeedbackFor } from "./live-feedback-commands";
import { gameStandingFor } from "./game-queries";

/** A student's ○/× and the key of the live scene the teacher has shown (NOT_FOUND before the reveal). */
export const liveFeedbackAction = defineAction({
  name: "live.feedback",
  schema: z.object({ activityId: z.uuid(), sceneId: z.uuid() }),
  roles: ["student"],
  run: async (i, actor) => {
    if (!actor.schoolId) return fail("FORBIDDEN");
    const found = await liveFeedbackFor({ id: actor.id, schoolId: actor.schoolId }, i.activityId, i.sceneId);
    return found ? ok(found) : fail("NOT_FOUND");
  },
});

/** A student's own points and rank in the game they follow, while its teacher shows the leaderboard (NOT_FOUND otherwise). */
export const gameStandingAction = defineAction({
  name: "live.game",
  schema: z.object({ activityId: z.uuid() }),
  roles: ["student"],
  run: async (i, actor) => {
    if (!actor.schoolId) return fail("FORBIDDEN");
    const found = await gameStandingFor({ id: actor.id, schoolId: actor.schoolId }, i.activityId);
    return found ? ok(found) : fail("NOT_FOUND");
  },
});
