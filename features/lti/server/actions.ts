"use server";
import { z } from "zod";
import { defineAcademyAction } from "@/features/people/server/school-action";
import { ltiPlatformInput } from "@/features/lti/shared/platform-input";
import { removeLtiPlatform, setLtiPlatform } from "./platform-commands";

/** Registers (or replaces) the manager's own academy's LTI platform (features/lti/README.md). */
export const setLtiPlatformAction = defineAcademyAction({
  name: "academy.ltiPlatform",
  schema: ltiPlatformInput,
  revalidate: ["/dashboard/manager"],
  run: (ctx, i) => setLtiPlatform(ctx.academyId, i, { actorId: ctx.actorId }),
});

/** Removes the manager's own academy's LTI platform. */
export const removeLtiPlatformAction = defineAcademyAction({
  name: "academy.ltiPlatformRemove",
  schema: z.object({}),
  revalidate: ["/dashboard/manager"],
  run: (ctx) => removeLtiPlatform(ctx.academyId, { actorId: ctx.actorId }),
});
