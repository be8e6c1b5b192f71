"use server";
import { defineSchoolAction } from "@/features/people/server/school-action";
import { applyRollover } from "./rollover-commands";
import { rolloverInput } from "../shared/rollover-schema";

/** The year-end rollover of a school of the manager's academy (features/rostering/server/rollover-commands.ts). */
export const applyRolloverAction = defineSchoolAction({
  name: "rollover.apply",
  schema: rolloverInput,
  roles: ["manager"],
  revalidate: ["/dashboard/manager/schools", "/dashboard/manager/activities", "/dashboard/teacher"],
  run: (ctx, input) => applyRollover(ctx, input),
});
