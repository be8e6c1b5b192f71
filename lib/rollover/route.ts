import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { getActor } from "@/lib/auth/session";
import { problem } from "@/lib/http";
import { claimRosterSlot, managerOf, readUploadedSet, releaseRosterSlot } from "@/lib/roster/route";
import { authorizeSchool } from "@/lib/schools/scope";
import { applyRollover, type RolloverResult } from "./mutations";
import { rolloverInput } from "./schema";

const STATUS = { CONFLICT: 409, VALIDATION: 400 } as const;

/**
 * POST /api/v1/rollover/{schoolId}?expectedYear=&topGrade=[&apply=1]: the year-end rollover of a
 * school of the manager's academy with next year's OneRoster set as the body (a zip, or its CSV
 * files as `files` form fields: the roster page's upload, read by the same reader). Without `apply`
 * the preview: the rollover and the set done and undone in one transaction. With it: the same, kept
 * (exactly once: `expectedYear`). The answer is the rollover's result, `roster` the set's plan or
 * problems (`applied: false`: nothing changed).
 */
export async function rolloverSetRoute(req: NextRequest, schoolId: string): Promise<Response> {
  const manager = await managerOf(req, true);
  if (manager instanceof Response) return manager;
  const actor = await getActor();
  if (!actor || actor === "disabled") return problem(401, "UNAUTHENTICATED");
  const scope = await authorizeSchool(actor, schoolId);
  if (!scope) return problem(404, "NOT_FOUND");
  const query = req.nextUrl.searchParams;
  // &confirmName=: the school's name as the manager typed it, needed to apply a rollover that graduates anyone
  const input = rolloverInput.safeParse({ schoolId, expectedYear: Number(query.get("expectedYear")), topGrade: Number(query.get("topGrade")), classMoves: [], confirmName: query.get("confirmName") ?? undefined });
  if (!input.success) return problem(400, "VALIDATION");
  if (!claimRosterSlot()) return problem(429, "RATE_LIMITED");
  try {
    const read = await readUploadedSet(req, manager.academyId);
    if (read instanceof Response) return read;
    const headers = { "Cache-Control": "no-store" };
    if (!read.set) {
      const refused: RolloverResult = { year: input.data.expectedYear + 1, promoted: 0, graduated: 0, archived: 0, reissuedIds: [], applied: false, roster: { schools: [], problems: read.problems } };
      return NextResponse.json(refused, { headers });
    }
    const result = await applyRollover({ schoolId: scope, actorId: manager.id }, input.data, { set: read.set, dryRun: query.get("apply") !== "1" });
    if (!result.ok) return problem(result.code === "CONFLICT" ? STATUS.CONFLICT : STATUS.VALIDATION, result.code);
    return NextResponse.json(result.data, { headers });
  } finally {
    releaseRosterSlot();
  }
}
