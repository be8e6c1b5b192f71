import "server-only";
import { NextResponse } from "next/server";
import { STAFF_ROLES } from "@/platform/auth/roles";
import { problem, readBodyLimited } from "@/platform/http";
import { defineRoute } from "@/platform/http/route";
import { authorizeSchool } from "@/platform/auth/scope";
import { rationRefusal, withRation } from "@/platform/security/ration";
import { furiganaInput, MAX_FURIGANA_BODY } from "../shared/furigana-schema";
import { suggestFurigana } from "./furigana-suggest";

function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

/**
 * POST /api/v1/furigana `{ text, schoolId? }` from the editor: the proposed
 * readings of the text's kanji words (features/activities/shared/furigana-propose.ts). Teachers for
 * their school, managers for a school of their academy (named); changes
 * nothing, but runs the analyser, so only staff of the app's own pages, and
 * rationed per person and per process (platform/security/ration.ts: 429 with Retry-After).
 */
export const POST = defineRoute({
  roles: STAFF_ROLES,
  async run(req, actor) {
    const answer = await withRation("furigana", actor.id, async () => {
      const body = await readBodyLimited(req, MAX_FURIGANA_BODY);
      if (body === null) return problem(413, "VALIDATION");
      const parsed = furiganaInput.safeParse(jsonOf(body));
      if (!parsed.success)
        return problem(parsed.error.issues.some((i) => i.code === "too_big") ? 413 : 400, "VALIDATION");
      const school = await authorizeSchool(actor, parsed.data.schoolId);
      if (!school) return problem(403, "FORBIDDEN");
      const proposals = await suggestFurigana(school, parsed.data.text);
      return NextResponse.json({ ok: true, data: { proposals } }, { headers: { "Cache-Control": "no-store" } });
    });
    return answer.ok ? answer.value : rationRefusal(answer.retryAfterS);
  },
});
