import "server-only";
import type { NextRequest } from "next/server";
import { audit } from "@/platform/audit/log";
import type { Actor } from "@/platform/auth/session";
import { problem, saveBodyWithin } from "@/platform/http";
import { isProfileName } from "@/features/rostering/shared/oneroster-columns";
import { zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { attachmentHeaders } from "@/platform/http/download";
import { MAX_ROSTER_UPLOAD_BYTES } from "@/features/rostering/server/oneroster-package";
import type { RolloverInput } from "@/features/rostering/shared/rollover-schema";
import { defineRoute } from "@/platform/http/route";
import { findSchool } from "./queries";
import { rosterSetOfAcademy } from "./export";
import { runUploadJobInChild, storeUpload } from "./upload-process";

/** The whole upload must arrive within this (a client trickling its body is cut off; it never holds a slot meanwhile). */
export const ROSTER_UPLOAD_DEADLINE_MS = 60_000;

/**
 * The most bytes per second an uploaded set is read at: the largest set (64 MB) arrives in about eight
 * seconds (a manager's upload over a school's network takes about as long), while the lessons on the
 * same server keep their pace (tools/bench/roster-load.ts).
 */
export const ROSTER_UPLOAD_BYTES_PER_SECOND = 8 * 1024 * 1024;

/** The academies whose set is being worked through now: one set per academy at a time (the apply writes its people). */
const busy = new Set<string>();

/** Takes the academy's one slot for a set (false: one of its sets is being worked through; answer 429). */
function claimRosterSlot(academyId: string): boolean {
  if (busy.has(academyId)) return false;
  busy.add(academyId);
  return true;
}

/** A manager with their academy (read from the database actor, never from the request). */
export type AcademyManager = Actor & { academyId: string };

/**
 * A route handler on the acting manager's own academy: defineRoute's checks for managers, then the
 * academy (a manager without one: 403), then `run` with the manager.
 */
export function defineAcademyRoute<A extends unknown[] = []>(
  run: (req: NextRequest, manager: AcademyManager, ...args: A) => Promise<Response>,
) {
  return defineRoute<A>({
    roles: ["manager"],
    run: async (req, actor, ...args) =>
      actor.academyId ? run(req, { ...actor, academyId: actor.academyId }, ...args) : problem(403, "FORBIDDEN"),
  });
}

type SetWork =
  { kind: "import"; apply: boolean } | { kind: "rollover"; schoolId: string; input: RolloverInput; dryRun: boolean };

/**
 * A set a manager uploaded (a zip, or its CSV files as multipart `files`), worked through in a
 * child process of its own (features/rostering/server/upload-process.ts runs features/rostering/server/upload-job.ts): the whole
 * body is received first into a private file, at most ROSTER_UPLOAD_BYTES_PER_SECOND (within
 * ROSTER_UPLOAD_DEADLINE_MS: too large 413, too slow 408), then the academy's slot is taken (429 while another of its sets is
 * worked through), so a slow client holds nothing anyone else waits on.
 */
export async function workThroughUploadedSet(
  req: NextRequest,
  manager: { id: string; academyId: string },
  work: SetWork,
): Promise<Response> {
  const limits = {
    max: MAX_ROSTER_UPLOAD_BYTES,
    ms: ROSTER_UPLOAD_DEADLINE_MS,
    bytesPerSecond: ROSTER_UPLOAD_BYTES_PER_SECOND,
  };
  const { upload, saved } = await storeUpload((file) => saveBodyWithin(req, file, limits));
  const refused =
    saved === "tooLarge"
      ? problem(413, "VALIDATION")
      : saved === "tooSlow"
        ? problem(408, "VALIDATION")
        : !claimRosterSlot(manager.academyId)
          ? problem(429, "RATE_LIMITED")
          : null;
  if (refused) {
    upload.drop();
    return refused;
  }
  const job = {
    ...work,
    academyId: manager.academyId,
    actorId: manager.id,
    contentType: req.headers.get("content-type") ?? "",
  };
  return runUploadJobInChild(job, upload, () => busy.delete(manager.academyId));
}

/**
 * POST /api/v1/roster/import[?apply=1]: a manager's OneRoster set for their academy. Without
 * `apply`: the dry run, `{ schools, problems }` as JSON. With it: NDJSON lines, `{"progress":…}`
 * after each school's transaction, then `{"result":{schools, problems, applied}}` (nothing is
 * changed when there are problems). docs/oneroster.md.
 */
export const rosterImportRoute = defineAcademyRoute(async (req, manager) =>
  workThroughUploadedSet(req, manager, { kind: "import", apply: req.nextUrl.searchParams.get("apply") === "1" }),
);

/**
 * GET /api/v1/roster/export[?school=][&profile=]: the academy (or one of its schools) as a OneRoster
 * 1.2 Japan Profile zip, in the profile asked for (default: that of the academy's last applied set).
 */
export const rosterExportRoute = defineAcademyRoute(async (req, manager) => {
  const ref = req.nextUrl.searchParams.get("school");
  const school = ref ? await findSchool(manager.academyId, ref) : null;
  if (ref && !school) return problem(404, "NOT_FOUND");
  const profile = req.nextUrl.searchParams.get("profile");
  if (profile !== null && !isProfileName(profile)) return problem(400, "VALIDATION");
  const set = await rosterSetOfAcademy(manager.academyId, { schoolId: school?.id, profile: profile ?? undefined });
  if (!set) return problem(404, "NOT_FOUND");
  await audit({
    action: "roster.export",
    actorId: manager.id,
    academyId: manager.academyId,
    schoolId: school?.id ?? null,
    meta: { via: "web", users: set.users.length, profile: set.manifest.profile },
  });
  const name = `oneroster-${new Date().toISOString().slice(0, 10)}`;
  return new Response(new Uint8Array(zipRosterPackage(set)), {
    headers: attachmentHeaders("application/zip", `${name}.zip`, `${name}.zip`),
  });
});
