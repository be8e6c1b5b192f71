"use server";
import { z } from "zod";
import { defineSchoolAction } from "@/features/people/server/school-action";
import { fail, ok } from "@/platform/errors";
import { markResponse } from "./mark-commands";
import { staffMarkOf } from "./mark-queries";
import { markInput } from "../shared/mark-schema";

/** A teacher (own school) or manager (a school of the academy) marks or comments one answer. */
export const markResponseAction = defineSchoolAction({
  name: "marks.mark",
  schema: markInput,
  roles: ["teacher", "manager"],
  revalidate: [],
  run: (ctx, input) => markResponse(ctx, input),
});

/** The mark of one answer of the school (the live console's comment box starts from it); null: none yet. */
export const readMarkAction = defineSchoolAction({
  name: "marks.read",
  schema: z.object({ schoolId: z.uuid().optional(), activityId: z.uuid(), responseId: z.uuid() }),
  roles: ["teacher", "manager"],
  revalidate: [],
  run: async (ctx, input) => {
    const found = await staffMarkOf(ctx.schoolId, input.activityId, input.responseId);
    return found ? ok(found.mark) : fail("NOT_FOUND");
  },
});
