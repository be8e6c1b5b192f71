"use server";
import { z } from "zod";
import { defineAction } from "@/platform/http/action";
import { fail, ok } from "@/platform/errors";
import { liveFeedbackFor } from "./live-feedback-commands";

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
