import { IMAGE_TYPES, type ImageProblem, MAX_IMAGE_BYTES } from "@/features/scenes/shared/image-limits";

export type Uploaded = { id: string; width: number; height: number };
export type UploadResult = { ok: true; image: Uploaded } | { ok: false; problem: ImageProblem };

/** What the browser can tell before sending (the server decides again on the bytes). */
export function precheckImage(file: { size: number; type: string }): ImageProblem | null {
  if (file.size > MAX_IMAGE_BYTES) return "tooLarge";
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return "type";
  return null;
}

/**
 * Sends an image to POST /api/v1/images with XMLHttpRequest, whose upload events give the
 * progress a slow school network needs to show (fetch has none).
 */
export function uploadImage(
  file: File,
  onProgress: (percent: number) => void,
  schoolId?: string,
): Promise<UploadResult> {
  const early = precheckImage(file);
  if (early) return Promise.resolve({ ok: false, problem: early });
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", schoolId ? `/api/v1/images?school=${encodeURIComponent(schoolId)}` : "/api/v1/images");
    xhr.setRequestHeader("Content-Type", file.type);
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      const body = xhr.response as { ok?: boolean; data?: Uploaded; problem?: ImageProblem } | null;
      if (xhr.status === 200 && body?.ok && body.data) resolve({ ok: true, image: body.data });
      else resolve({ ok: false, problem: body?.problem ?? (xhr.status === 429 ? "busy" : "failed") });
    };
    xhr.onerror = () => resolve({ ok: false, problem: "failed" });
    xhr.ontimeout = () => resolve({ ok: false, problem: "failed" });
    xhr.send(file);
  });
}
