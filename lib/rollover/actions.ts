"use server";
import { defineSchoolAction } from "@/lib/schools/school-action";
import { applyRollover } from "./mutations";
import { rolloverInput } from "./schema";

/** The year-end rollover of a school of the manager's academy (lib/rollover/mutations.ts). */
export const applyRolloverAction = defineSchoolAction({
  name: "rollover.apply",
  schema: rolloverInput,
  roles: ["manager"],
  revalidate: ["/dashboard/manager/schools", "/dashboard/manager/activities", "/dashboard/teacher"],
  run: (ctx, input) => applyRollover(ctx, input),
});
