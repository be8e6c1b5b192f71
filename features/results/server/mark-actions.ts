"use server";
import { defineSchoolAction } from "@/features/people/server/school-action";
import { markResponse } from "./mark-commands";
import { markInput } from "../shared/mark-schema";

/** A teacher (own school) or manager (a school of the academy) marks or comments one answer. */
export const markResponseAction = defineSchoolAction({
  name: "marks.mark",
  schema: markInput,
  roles: ["teacher", "manager"],
  revalidate: [],
  run: (ctx, input) => markResponse(ctx, input),
});
