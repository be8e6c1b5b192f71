"use server";
import { z } from "zod";
import { errorField, log } from "@/platform/ops/log";
import { defineAcademyAction } from "@/features/people/server/school-action";
import { ltiPlatformInput } from "@/features/lti/shared/platform-input";
import { lrsFormInput } from "@/features/lti/shared/lrs-input";
import { removeLtiPlatform, setLtiPlatform } from "./platform-commands";
import { removeLrs, setLrs } from "./lrs-commands";
import { checkXapi } from "./xapi-queue";

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

/** Sets (or replaces) the manager's own academy's LRS, its credentials sealed (features/lti/README.md "Learning records"). */
export const setLrsAction = defineAcademyAction({
  name: "academy.lrs",
  schema: lrsFormInput,
  revalidate: ["/dashboard/manager/schools"],
  run: async (ctx, i) => {
    const result = await setLrs(ctx.academyId, i, { actorId: ctx.actorId });
    // this server sends from now on (other instances within their next check)
    if (result.ok)
      await checkXapi().catch((error: unknown) =>
        log().error({ event: "xapi.start.failed", ...errorField(error) }, "xapi: the queue did not start"),
      );
    return result;
  },
});

/** Removes the manager's own academy's LRS. */
export const removeLrsAction = defineAcademyAction({
  name: "academy.lrsRemove",
  schema: z.object({}),
  revalidate: ["/dashboard/manager/schools"],
  run: (ctx) => removeLrs(ctx.academyId, { actorId: ctx.actorId }),
});
