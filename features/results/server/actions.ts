"use server";
import { z } from "zod";
import { ok } from "@/platform/errors";
import { defineSchoolAction } from "@/features/people/server/school-action";
import { statsFilter } from "../shared/schema";
import { cellReasons } from "./stats";

const option = z.string().max(64);

/** The reasons behind one cross-table cell (read on click: the page stays light with 1,000 students). */
export const cellReasonsAction = defineSchoolAction({
  name: "results.cellReasons",
  schema: z.object({
    schoolId: z.uuid().optional(),
    activityId: z.uuid(),
    sceneId: z.uuid(),
    first: option,
    second: option,
    filter: statsFilter,
  }),
  roles: ["teacher", "manager"],
  revalidate: [],
  run: async (ctx, i) => ok(await cellReasons(ctx.schoolId, i.activityId, i.sceneId, i.first, i.second, i.filter)),
});
