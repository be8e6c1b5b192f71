"use server";
import { defineSchoolAction } from "@/lib/schools/school-action";
import { markResponse } from "./mutations";
import { markInput } from "./schema";

/** A teacher (own school) or manager (a school of the academy) marks or comments one answer. */
export const markResponseAction = defineSchoolAction({
  name: "marks.mark",
  schema: markInput,
  roles: ["teacher", "manager"],
  revalidate: [],
  run: (ctx, input) => markResponse(ctx, input),
});
