import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { audit } from "@/lib/audit/log";
import { getActor } from "@/lib/auth/session";
import { problem, readBytesLimited } from "@/lib/http";
import type { RosterInput } from "@/lib/oneroster/read";
import { readRosterPackage } from "@/lib/oneroster/read";
import { zipRosterPackage } from "@/lib/oneroster/write";
import { attachmentHeaders } from "@/lib/results/export";
import { sameOrigin } from "@/lib/security/headers";
import { findSchool, knownRosterRows } from "./data";
import { rosterSetOfAcademy } from "./export";
import { applyRosterImport } from "./mutations";
import { planRosterImport } from "./plan";

/** The largest upload the page sends (a zip or its CSV files): a city's 10,000 students are a few MB. */
export const MAX_ROSTER_UPLOAD_BYTES = 64 * 1024 * 1024;

/** One set read, planned or applied at a time per server: reading 100,000 rows is CPU work shared with every lesson. */
let busy = false;

/** Takes the server's one slot for reading a set (false: another is being read; answer 429). */
export function claimRosterSlot(): boolean {
  if (busy) return false;
  busy = true;
  return true;
}
export function releaseRosterSlot(): void {
  busy = false;
}

export async function managerOf(req: NextRequest, write: boolean) {
  if (write && !sameOrigin(req.headers, req.url)) return problem(403, "FORBIDDEN");
  const actor = await getActor();
  if (!actor || actor === "disabled") return problem(401, "UNAUTHENTICATED");
  if (actor.role !== "manager" || !actor.academyId) return problem(403, "FORBIDDEN");
  return { id: actor.id, academyId: actor.academyId };
}

/** A zip as the body, or the set's CSV files as multipart form fields named `files`. */
async function rosterInputOf(bytes: Buffer, contentType: string): Promise<RosterInput | null> {
  if (!contentType.startsWith("multipart/form-data")) return new Uint8Array(bytes);
  const form = await new Response(new Uint8Array(bytes), { headers: { "content-type": contentType } }).formData().catch(() => null);
  if (!form) return null;
  const files: Record<string, Uint8Array> = {};
  for (const entry of form.getAll("files")) {
    if (typeof entry === "string") return null;
    if (entry.name.toLowerCase().endsWith(".zip") && form.getAll("files").length === 1) return new Uint8Array(await entry.arrayBuffer());
    files[entry.name.split(/[\\/]/).pop()!] = new Uint8Array(await entry.arrayBuffer());
  }
  return Object.keys(files).length > 0 ? files : null;
}

/** The set a manager uploaded (a zip, or its CSV files): a refusal (too large 413, unreadable 400), or the reader's answer (its problems, or the set). */
export async function readUploadedSet(req: NextRequest, academyId: string): Promise<Response | Awaited<ReturnType<typeof readRosterPackage>>> {
  const bytes = await readBytesLimited(req, MAX_ROSTER_UPLOAD_BYTES);
  if (bytes === null) return problem(413, "VALIDATION");
  const input = await rosterInputOf(bytes, req.headers.get("content-type") ?? "");
  if (!input) return problem(400, "VALIDATION");
  return readRosterPackage(input, { known: await knownRosterRows(academyId) });
}

const line = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value)}\n`);

/**
 * POST /api/v1/roster/import[?apply=1]: a manager's OneRoster set for their academy. Without
 * `apply`: the dry run, `{ schools, problems }` as JSON. With it: NDJSON lines, `{"progress":…}`
 * after each school's transaction, then `{"result":{schools, problems, applied}}` (nothing is
 * changed when there are problems). docs/oneroster.md.
 */
export async function rosterImportRoute(req: NextRequest): Promise<Response> {
  const manager = await managerOf(req, true);
  if (manager instanceof Response) return manager;
  if (!claimRosterSlot()) return problem(429, "RATE_LIMITED");
  let streaming = false;
  try {
    const read = await readUploadedSet(req, manager.academyId);
    if (read instanceof Response) return read;
    const headers = { "Cache-Control": "no-store" };
    if (!read.set) return NextResponse.json({ schools: [], problems: read.problems, applied: false }, { headers });
    const set = read.set;
    if (req.nextUrl.searchParams.get("apply") !== "1") return NextResponse.json({ ...(await planRosterImport(manager.academyId, set)), applied: false }, { headers });
    streaming = true;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        try {
          const result = await applyRosterImport(manager.academyId, set, { actorId: manager.id, via: "web", onProgress: (p) => controller.enqueue(line({ progress: p })) });
          controller.enqueue(line({ result }));
        } catch {
          controller.enqueue(line({ error: "INTERNAL" }));
        } finally {
          releaseRosterSlot();
          controller.close();
        }
      },
    });
    return new Response(body, { headers: { ...headers, "Content-Type": "application/x-ndjson; charset=utf-8", "X-Accel-Buffering": "no" } });
  } finally {
    if (!streaming) releaseRosterSlot();
  }
}

/** GET /api/v1/roster/export[?school=]: the academy (or one of its schools) as a OneRoster 1.2 Japan Profile zip. */
export async function rosterExportRoute(req: NextRequest): Promise<Response> {
  const manager = await managerOf(req, false);
  if (manager instanceof Response) return manager;
  const ref = req.nextUrl.searchParams.get("school");
  const school = ref ? await findSchool(manager.academyId, ref) : null;
  if (ref && !school) return problem(404, "NOT_FOUND");
  const set = await rosterSetOfAcademy(manager.academyId, school?.id);
  if (!set) return problem(404, "NOT_FOUND");
  await audit({ action: "roster.export", actorId: manager.id, academyId: manager.academyId, schoolId: school?.id ?? null, meta: { via: "web", users: set.users.length } });
  const name = `oneroster-${new Date().toISOString().slice(0, 10)}`;
  return new Response(new Uint8Array(zipRosterPackage(set)), { headers: attachmentHeaders("application/zip", `${name}.zip`, `${name}.zip`) });
}
