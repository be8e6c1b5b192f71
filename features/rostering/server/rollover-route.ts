import "server-only";
import { problem } from "@/platform/http";
import { defineAcademyRoute, workThroughUploadedSet } from "@/features/rostering/server/route";
import { authorizeSchool } from "@/platform/auth/scope";
import { rolloverInput } from "../shared/rollover-schema";

/**
 * POST /api/v1/rollover/{schoolId}?expectedYear=&topGrade=[&apply=1]: the year-end rollover of a
 * school of the manager's academy with next year's OneRoster set as the body (a zip, or its CSV
 * files as `files` form fields: the roster page's upload, read by the same reader). Without `apply`
 * the preview: the rollover and the set done and undone in one transaction. With it: the same, kept
 * (exactly once: `expectedYear`). The answer is the rollover's result, `roster` the set's plan or
 * problems (`applied: false`: nothing changed).
 */
export const rolloverSetRoute = defineAcademyRoute(async (req, manager, schoolId: string) => {
  const scope = await authorizeSchool(manager, schoolId);
  if (!scope) return problem(404, "NOT_FOUND");
  const query = req.nextUrl.searchParams;
  // &confirmName=: the school's name as the manager typed it, needed to apply a rollover that graduates anyone
  const input = rolloverInput.safeParse({
    schoolId,
    expectedYear: Number(query.get("expectedYear")),
    topGrade: Number(query.get("topGrade")),
    classMoves: [],
    confirmName: query.get("confirmName") ?? undefined,
  });
  if (!input.success) return problem(400, "VALIDATION");
  return workThroughUploadedSet(req, manager, {
    kind: "rollover",
    schoolId: scope,
    input: input.data,
    dryRun: query.get("apply") !== "1",
  });
});
