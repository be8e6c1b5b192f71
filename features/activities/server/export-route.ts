import "server-only";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { STAFF_ROLES } from "@/platform/auth/roles";
import { type AuthorizedSchoolId, authorizeSchool } from "@/platform/auth/scope";
import type { Actor } from "@/platform/auth/session";
import { problem } from "@/platform/http";
import { defineRoute } from "@/platform/http/route";
import { getActivityTitle } from "./queries";

/** Who asks for an export, and of which activity of which school. */
export interface ExportAccess {
  actor: Actor;
  school: AuthorizedSchoolId;
  activity: { id: string; title: string };
}

/**
 * GET /api/v1/exports/{activityId}/…: staff (defineRoute), then the activity in scope of their school
 * (manager: ?school=); anyone else's or none is 404, as for a missing activity. Then `run` with both.
 */
export function defineExportRoute(
  run: (req: NextRequest, access: ExportAccess, activityId: string) => Promise<Response>,
) {
  return defineRoute({
    roles: STAFF_ROLES,
    async run(req, actor, activityId: string) {
      const school = await authorizeSchool(actor, req.nextUrl.searchParams.get("school") ?? undefined);
      if (!school || !z.uuid().safeParse(activityId).success) return problem(404, "NOT_FOUND");
      const activity = await getActivityTitle(school, activityId);
      if (!activity) return problem(404, "NOT_FOUND");
      return run(req, { actor, school, activity }, activityId);
    },
  });
}
