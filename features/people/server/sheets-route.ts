import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { filterText } from "@/platform/db/query-text";
import { audit } from "@/platform/audit/log";
import { STAFF_ROLES } from "@/platform/auth/roles";
import type { Actor } from "@/platform/auth/session";
import { env, publicUrl } from "@/platform/env";
import { problem } from "@/platform/http";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { defineRoute } from "@/platform/http/route";
import { authorizeSchool } from "@/platform/auth/scope";
import { rationRefusal, takeRation } from "@/platform/security/ration";
import { listStudentIdsForSheets } from "./queries";
import { appDatabase } from "@/platform/db/settings";
import { MAX_CARDS } from "./sheets";
import { renderSigninSheets, SheetsBusyError, SHEETS_RETRY_AFTER_S } from "./sheets-render";

const query = z.object({
  /** A manager names the school (one of their academy's); a teacher's is their own. */
  schoolId: z.uuid().optional(),
  class: filterText(20).optional(),
  ids: z
    .string()
    .max(40_000)
    .optional()
    .transform((v) => (v ? v.split(",") : undefined))
    .pipe(z.array(z.uuid()).max(MAX_CARDS).optional()),
});

/** The request's fields: a form (the app's button) or a JSON object. */
async function bodyFields(req: NextRequest): Promise<unknown> {
  if (req.headers.get("content-type")?.includes("application/json")) return req.json().catch(() => null);
  const form = await req.formData().catch(() => null);
  return form
    ? Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string"))
    : null;
}

/**
 * POST /api/students/sheets with `class=1:2` (1年2組) (or `ids=…`) as a form: the
 * sign-in sheets PDF for a teacher's own students (or, with `schoolId=…`, a
 * manager's school's: the cards the year-end rollover reissued), as the response. Students
 * without a live code get one (printing again shows the same codes), so this
 * is a POST from the app's own pages: a GET, a link or another site's form
 * changes nothing. Bounded to 1,000 cards; one print per person at a time
 * (platform/security/ration.ts: 429 with Retry-After), and the renderer's own queue.
 */
export const POST = defineRoute({ roles: STAFF_ROLES, run: printSheets });

async function printSheets(req: NextRequest, actor: Actor): Promise<Response> {
  const parsed = query.safeParse(await bodyFields(req));
  if (!parsed.success) return problem(400, "VALIDATION");
  const school = await authorizeSchool(actor, parsed.data.schoolId);
  if (!school) return problem(403, "FORBIDDEN");

  const ids = await listStudentIdsForSheets(school, { klass: parsed.data.class, ids: parsed.data.ids }, MAX_CARDS);
  if (ids.length > MAX_CARDS) return problem(413, "VALIDATION");
  if (ids.length === 0) return problem(404, "NOT_FOUND");

  const ration = takeRation("pdf", actor.id);
  if (!ration.ok) return rationRefusal(ration.retryAfterS);
  const { SIGNIN_CODE_KEY } = env();
  const { url, connectMs, statementMs, pooled } = appDatabase();
  // the rest is the renderer process's, when the print's turn comes (features/people/server/sheets-cards.ts)
  const pdf = await renderSigninSheets({
    schoolId: school,
    ids,
    lang: await getDisplayLanguage(),
    origin: publicUrl(), // the configured public address, never the request's Host
    key: SIGNIN_CODE_KEY,
    database: { url, connectMs, statementMs, pooled },
  })
    .catch((error: unknown) => {
      if (error instanceof SheetsBusyError) return null;
      throw error;
    })
    .finally(ration.release);
  if (!pdf) {
    const busy = problem(503, "RATE_LIMITED");
    busy.headers.set("Retry-After", String(SHEETS_RETRY_AFTER_S));
    return busy;
  }
  await audit({
    action: "signinCode.print",
    actorId: actor.id,
    schoolId: school,
    meta: { count: pdf.cards, issued: pdf.issued },
  });
  return new NextResponse(pdf.body, {
    headers: {
      "Content-Length": String(pdf.bytes),
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="signin-sheets.pdf"`,
      "Cache-Control": "no-store",
    },
  });
}
