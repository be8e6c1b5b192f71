import type { Problem } from "@/features/rostering/shared/oneroster-model";
import type { ApplyProgress, RosterPlan } from "@/features/rostering/shared/types";

export type PlanAnswer = RosterPlan & { applied: boolean };
export type SendResult = { ok: true; plan: PlanAnswer } | { ok: false; status: number };

/** The request body: a zip as it is, or the CSV files as `files` form fields. */
export function bodyOf(files: File[]): { body: BodyInit; headers: Record<string, string> } {
  if (files.length === 1 && files[0]!.name.toLowerCase().endsWith(".zip"))
    return { body: files[0]!, headers: { "Content-Type": "application/zip" } };
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  return { body: form, headers: {} };
}

/** The dry run: POST /api/v1/roster/import. */
export async function checkRoster(files: File[]): Promise<SendResult> {
  try {
    const res = await fetch("/api/v1/roster/import", { method: "POST", ...bodyOf(files) });
    if (!res.ok) return { ok: false, status: res.status };
    return { ok: true, plan: (await res.json()) as PlanAnswer };
  } catch {
    return { ok: false, status: 0 };
  }
}

/** Applying: POST /api/v1/roster/import?apply=1, read line by line for the progress after each school. */
export async function applyRoster(files: File[], onProgress: (p: ApplyProgress) => void): Promise<SendResult> {
  try {
    const res = await fetch("/api/v1/roster/import?apply=1", { method: "POST", ...bodyOf(files) });
    if (!res.ok || !res.body) return { ok: false, status: res.status };
    if (!res.headers.get("content-type")?.includes("ndjson"))
      return { ok: true, plan: (await res.json()) as PlanAnswer };
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffered += value;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const text of lines.filter(Boolean)) {
        const message = JSON.parse(text) as { progress?: ApplyProgress; result?: PlanAnswer; error?: string };
        if (message.progress) onProgress(message.progress);
        if (message.result) return { ok: true, plan: message.result };
        if (message.error) return { ok: false, status: 500 };
      }
      if (done) return { ok: false, status: 0 };
    }
  } catch {
    return { ok: false, status: 0 };
  }
}

/** A problem's place: "users.csv 12行 givenName" style parts for the table. */
export const placeOf = (p: Problem) => ({
  file: p.file || "zip",
  line: p.line > 0 ? String(p.line) : "",
  column: p.column || "",
});
