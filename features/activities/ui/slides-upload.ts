import {
  MAX_SLIDES_BYTES,
  type SlidesLine,
  type SlidesProblem,
  type SlidesSceneType,
} from "@/features/scenes/shared/slide-limits";

export type SlidesResult = { ok: true; version: number; added: number } | { ok: false; problem: SlidesProblem };
export type SlidesProgress = { stage: "upload"; percent: number } | { stage: "pages"; page: number; pages: number };

/** The complete lines of a streamed answer so far (the last, unfinished one is left for later). */
function completeLines(text: string): SlidesLine[] {
  return text
    .split("\n")
    .slice(0, -1)
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as SlidesLine);
}

/** What the browser can tell before sending (the server decides again on the bytes). */
export function precheckSlides(file: { size: number; type: string; name: string }): SlidesProblem | null {
  if (file.size > MAX_SLIDES_BYTES) return "tooLarge";
  if (file.type !== "application/pdf" && !/\.pdf$/i.test(file.name)) return "type";
  return null;
}

/**
 * Sends a PDF to POST /api/v1/activities/{id}/slides with XMLHttpRequest: its upload events give the sending's
 * progress, its growing response the pages drawn so far (one JSON line each), the last line the outcome.
 */
export function uploadSlides(
  file: File,
  target: { activityId: string; version: number; as: SlidesSceneType; schoolId?: string },
  onProgress: (p: SlidesProgress) => void,
): Promise<SlidesResult> {
  const early = precheckSlides(file);
  if (early) return Promise.resolve({ ok: false, problem: early });
  const query = new URLSearchParams({ version: String(target.version), as: target.as, name: file.name });
  if (target.schoolId) query.set("school", target.schoolId);
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/activities/${encodeURIComponent(target.activityId)}/slides?${query}`);
    xhr.setRequestHeader("Content-Type", "application/pdf");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable)
        onProgress({ stage: "upload", percent: Math.min(100, Math.round((e.loaded / e.total) * 100)) });
    };
    xhr.onprogress = () => {
      const last = completeLines(xhr.responseText).at(-1);
      if (last && "page" in last) onProgress({ stage: "pages", page: last.page, pages: last.pages });
    };
    xhr.onload = () => {
      let last: SlidesLine | undefined;
      try {
        last = completeLines(`${xhr.responseText}\n`).at(-1);
      } catch {
        last = undefined;
      }
      if (last && "ok" in last && last.ok) resolve({ ok: true, ...last.data });
      else if (last && "ok" in last) resolve({ ok: false, problem: last.problem });
      else resolve({ ok: false, problem: xhr.status === 429 ? "busy" : "failed" });
    };
    xhr.onerror = () => resolve({ ok: false, problem: "failed" });
    xhr.ontimeout = () => resolve({ ok: false, problem: "failed" });
    xhr.send(file);
  });
}
