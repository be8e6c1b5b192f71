"use server";
import { defineSchoolAction } from "@/features/people/server/school-action";
import { createProjectorLink, revokeProjectorLinks, setAnswerStar } from "./projector-commands";
import { projectorRef, starInput } from "../shared/projector-schema";

/** The guide screen's projector controls: teachers on their school's activities, managers naming a school of their academy. */
const roles = ["teacher", "manager"] as const;

export const openProjectorAction = defineSchoolAction({
  name: "projector.open",
  schema: projectorRef,
  roles,
  revalidate: [],
  run: (ctx, i) => createProjectorLink(ctx, i.activityId, i.sessionId),
});
export const revokeProjectorAction = defineSchoolAction({
  name: "projector.revoke",
  schema: projectorRef,
  roles,
  revalidate: [],
  run: (ctx, i) => revokeProjectorLinks(ctx, i.activityId, i.sessionId),
});
export const starAnswerAction = defineSchoolAction({
  name: "projector.star",
  schema: starInput,
  roles,
  revalidate: [],
  run: (ctx, i) => setAnswerStar(ctx, i.activityId, i.responseId, i.starred, i.sessionId),
});
