import "server-only";
import { readRosterPackage, type RosterInput } from "@/features/rostering/server/oneroster-read";
import { applyRollover, type RolloverResult } from "@/features/rostering/server/rollover-commands";
import type { RolloverInput } from "@/features/rostering/shared/rollover-schema";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { knownRosterRows } from "./queries";
import { applyRosterImport } from "./commands";
import { planRosterImport } from "./plan";

/**
 * What a manager's uploaded set is for, with the upload's bytes as received: run in a child process
 * (features/rostering/server/upload-process.ts), so that the multipart form, the zip, the CSVs, the plan and the
 * apply are all worked through off the process that serves lessons. The caller has checked who
 * the manager is, which school they may roll over, and holds the academy's slot.
 */
export type UploadWork = { academyId: string; actorId: string; contentType: string } & (
  { kind: "import"; apply: boolean } | { kind: "rollover"; schoolId: string; input: RolloverInput; dryRun: boolean }
);

/** The work with the upload's bytes. */
export type UploadJob = UploadWork & { body: Uint8Array<ArrayBuffer> };

/** The job's answer as it is made: one JSON body with its status, or NDJSON lines. */
export interface JobOutput {
  json(status: number, value: unknown): void;
  line(value: unknown): void;
}

/** A zip as the body, or the set's CSV files as multipart form fields named `files`. */
async function rosterInputOf(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<RosterInput | null> {
  if (!contentType.startsWith("multipart/form-data")) return bytes;
  const form = await new Response(bytes, { headers: { "content-type": contentType } }).formData().catch(() => null);
  if (!form) return null;
  const files: Record<string, Uint8Array> = {};
  for (const entry of form.getAll("files")) {
    if (typeof entry === "string") return null;
    if (entry.name.toLowerCase().endsWith(".zip") && form.getAll("files").length === 1)
      return new Uint8Array(await entry.arrayBuffer());
    files[entry.name.split(/[\\/]/).pop()!] = new Uint8Array(await entry.arrayBuffer());
  }
  return Object.keys(files).length > 0 ? files : null;
}

const refusal = (status: number, code: string) => ({ status, value: { ok: false, code } });

async function importSet(
  job: UploadJob & { kind: "import" },
  set: NonNullable<Awaited<ReturnType<typeof readRosterPackage>>["set"]>,
  out: JobOutput,
) {
  if (!job.apply) return out.json(200, { ...(await planRosterImport(job.academyId, set)), applied: false });
  try {
    const result = await applyRosterImport(job.academyId, set, {
      actorId: job.actorId,
      via: "web",
      onProgress: (p) => out.line({ progress: p }),
    });
    out.line({ result });
  } catch {
    out.line({ error: "INTERNAL" });
  }
}

async function rolloverSet(
  job: UploadJob & { kind: "rollover" },
  read: Awaited<ReturnType<typeof readRosterPackage>>,
  out: JobOutput,
) {
  if (!read.set) {
    const refused: RolloverResult = {
      year: job.input.expectedYear + 1,
      promoted: 0,
      graduated: 0,
      archived: 0,
      reissuedIds: [],
      applied: false,
      roster: { schools: [], problems: read.problems },
    };
    return out.json(200, refused);
  }
  // the school was authorized for this manager by the route before the job was started
  const result = await applyRollover(
    { schoolId: job.schoolId as AuthorizedSchoolId, actorId: job.actorId },
    job.input,
    { set: read.set, dryRun: job.dryRun },
  );
  if (!result.ok) {
    const { status, value } = refusal(result.code === "CONFLICT" ? 409 : 400, result.code);
    return out.json(status, value);
  }
  out.json(200, result.data);
}

/** Reads the uploaded set and does what the job asks with it: the import's plan or apply, or the rollover with it. */
export async function runUploadJob(job: UploadJob, out: JobOutput): Promise<void> {
  const input = await rosterInputOf(job.body, job.contentType);
  if (!input) {
    const { status, value } = refusal(400, "VALIDATION");
    return out.json(status, value);
  }
  const read = await readRosterPackage(input, { known: await knownRosterRows(job.academyId) });
  if (job.kind === "rollover") return rolloverSet(job, read, out);
  if (!read.set) return out.json(200, { schools: [], problems: read.problems, applied: false });
  return importSet(job, read.set, out);
}
