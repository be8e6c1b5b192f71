import "server-only";
import { NextResponse } from "next/server";
import { ROLES, STAFF_ROLES } from "@/platform/auth/roles";
import { problem, readUploadBytes } from "@/platform/http";
import { defineRoute } from "@/platform/http/route";
import { authorizeSchool } from "@/platform/auth/scope";
import { RATIONS, rationRefusal, takeRation } from "@/platform/security/ration";
import { type ImageMeta, imageForViewer } from "./image-queries";
import { type ImageProblem, MAX_IMAGE_BYTES } from "../shared/image-limits";
import { imageStorage } from "./image-storage";
import { storeImage } from "./image-store";

/** A year: the bytes behind an id never change (rows are never updated). `private`: only the signed-in browser keeps them, never a shared cache. */
const CACHE = "private, max-age=31536000, immutable";
const STATUS: Record<Exclude<ImageProblem, "busy">, number> = {
  tooLarge: 413,
  type: 415,
  pixels: 422,
  unreadable: 422,
  failed: 503,
  quota: 409,
};
const refused = (p: ImageProblem) =>
  p === "busy"
    ? rationRefusal(RATIONS.image.retryAfterS, { problem: p })
    : NextResponse.json(
        { ok: false, code: p === "failed" ? "INTERNAL" : "VALIDATION", problem: p },
        { status: STATUS[p], headers: { "Cache-Control": "no-store" } },
      );

/**
 * POST /api/v1/images[?school=] with the file's bytes as the body: teachers for their school,
 * managers for a school of their academy (named). Answers `{ ok, data: { id, width, height } }`
 * or `{ ok: false, code, problem }` (features/scenes/README.md "Images"). Rationed per person and
 * per process before the body is read (platform/security/ration.ts: 429 `busy` with Retry-After), its
 * bytes counted against the cap of upload bytes in flight (platform/http/index.ts `readUploadBytes`).
 */
export const uploadImage = defineRoute({
  roles: STAFF_ROLES,
  async run(req, actor) {
    const school = await authorizeSchool(actor, req.nextUrl.searchParams.get("school") ?? undefined);
    if (!school) return problem(403, "FORBIDDEN");
    const ration = takeRation("image", actor.id);
    if (!ration.ok) return refused("busy");
    try {
      const body = await readUploadBytes(req, MAX_IMAGE_BYTES);
      if (!body.ok) return refused(body.problem);
      const stored = await storeImage(school, actor.id, body.bytes);
      if (!stored.ok) return refused(stored.problem);
      const { id, width, height } = stored.image;
      return NextResponse.json({ ok: true, data: { id, width, height } }, { headers: { "Cache-Control": "no-store" } });
    } finally {
      ration.release();
    }
  },
});

/**
 * GET /api/v1/images/{id}: the image to signed-in users of its school (managers: of their
 * academy's schools). Any other id, one of another school included, is 404, so ids are never
 * confirmed. The body can never be read as a page or a script (nosniff, CSP none, its own type).
 */
export const serveImage = defineRoute({
  roles: ROLES,
  async run(req, actor, id: string) {
    const image = await imageForViewer(actor, id);
    if (!image) return problem(404, "NOT_FOUND");
    return sendImage(req, image, CACHE);
  },
});

/**
 * The bytes of an image the caller has already allowed (its own headers: never read as a page or
 * a script), or 304 when the browser holds them. `cache`: how long the browser may keep them.
 */
export async function sendImage(req: Request, image: ImageMeta, cache: string): Promise<Response> {
  const headers = {
    "Cache-Control": cache,
    ETag: `"${image.sha256}"`,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": "same-origin",
    Vary: "Cookie",
  };
  const match = req.headers.get("if-none-match");
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === headers.ETag))
    return new Response(null, { status: 304, headers });
  const bytes = await imageStorage().get(image.sha256);
  if (!bytes) return problem(404, "NOT_FOUND");
  return new Response(new Uint8Array(bytes), {
    headers: { ...headers, "Content-Type": image.contentType, "Content-Length": String(bytes.byteLength) },
  });
}
