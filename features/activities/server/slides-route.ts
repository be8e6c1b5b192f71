import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { ROLES } from "@/platform/auth/roles";
import { authorizeSchool } from "@/platform/auth/scope";
import { problem, readUploadBytes } from "@/platform/http";
import { defineRoute } from "@/platform/http/route";
import { RATIONS, rationRefusal, takeRation } from "@/platform/security/ration";
import { isPdf } from "@/features/scenes/server/slides-render";
import {
  MAX_SLIDES_BYTES,
  SLIDES_SCENE_TYPES,
  type SlidesLine,
  type SlidesProblem,
} from "@/features/scenes/shared/slide-limits";
import { canEditActivity } from "../shared/policy";
import { countScenes } from "./queries";
import { importSlides, slidesName } from "./slides-import";

/** The query beside the school: the version the editor shows, what each page becomes, the file's name. */
const slidesQuery = z.object({
  version: z.coerce.number().int().min(0),
  as: z.enum(SLIDES_SCENE_TYPES).default("info"),
  name: z.string().nullable().default(null),
});

const STATUS: Partial<Record<SlidesProblem, number>> = { tooLarge: 413, type: 415 };
const refused = (p: SlidesProblem) =>
  p === "busy"
    ? rationRefusal(RATIONS.slides.retryAfterS, { problem: p })
    : NextResponse.json(
        { ok: false, problem: p },
        { status: STATUS[p] ?? 422, headers: { "Cache-Control": "no-store" } },
      );

/**
 * POST /api/v1/activities/{id}/slides?version=N[&as=drawing][&name=][&school=] with a PDF's bytes as the body: staff who may
 * edit activities, for an activity of their school (managers: a school of their academy, named). Rationed before
 * the body is read. A refused file is answered at once (413, 415, 422, 429); otherwise the answer streams one JSON
 * object per line as each page is done (`{ page, pages }`) and ends with the outcome (features/scenes/shared/slide-limits.ts
 * SlidesLine), so a slow school network shows progress. Someone else's or a missing activity is 404.
 */
export const importSlidesRoute = defineRoute({
  roles: ROLES.filter(canEditActivity),
  async run(req, actor, activityId: string) {
    const params = req.nextUrl.searchParams;
    const school = await authorizeSchool(actor, params.get("school") ?? undefined);
    if (!school || !z.uuid().safeParse(activityId).success) return problem(404, "NOT_FOUND");
    const scenes = await countScenes(school, activityId);
    if (scenes === null) return problem(404, "NOT_FOUND");
    const query = slidesQuery.safeParse({
      version: params.get("version") ?? undefined,
      as: params.get("as") ?? undefined,
      name: params.get("name"),
    });
    if (!query.success) return problem(400, "VALIDATION");
    const ration = takeRation("slides", actor.id);
    if (!ration.ok) return refused("busy");
    const body = await readUploadBytes(req, MAX_SLIDES_BYTES).catch((error: unknown) => {
      ration.release();
      throw error;
    });
    if (!body.ok) {
      ration.release();
      return refused(body.problem === "busy" ? "busy" : "tooLarge");
    }
    if (!isPdf(body.bytes)) {
      ration.release();
      return refused("type");
    }
    const { version, as, name } = query.data;
    const input = { activityId, version, name: slidesName(name), as, scenes, bytes: body.bytes };
    return streamLines(async (send) => {
      try {
        send(
          await importSlides(
            { schoolId: school, actorId: actor.id },
            input,
            (page, pages) => send({ page, pages }),
            req.signal,
          ),
        );
      } finally {
        ration.release();
      }
    });
  },
});

/** A response whose body is the lines `produce` sends, one JSON object each, ended when it returns. */
function streamLines(produce: (send: (line: SlidesLine) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (line: SlidesLine) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      produce(send)
        .catch(() => send({ ok: false, problem: "failed" }))
        .finally(() => controller.close());
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
