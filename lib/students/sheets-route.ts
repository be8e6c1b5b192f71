import "server-only";
import { getTranslations } from "next-intl/server";
import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { filterText } from "@/lib/query-text";
import { audit } from "@/lib/audit/log";
import { getActor } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { problem } from "@/lib/http";
import { defaultLanguageFor, toDisplayLanguage } from "@/lib/i18n/languages";
import { toPlainText } from "@/lib/richtext/plain";
import { authorizeSchool } from "@/lib/schools/scope";
import { sameOrigin } from "@/lib/security/headers";
import { decryptCode } from "@/lib/signin-codes/crypto";
import { issueFirstCodes } from "@/lib/signin-codes/mutations";
import { signinCodeUrl } from "@/lib/signin-codes/url";
import { listStudentIdsForSheets, readSheetStudents, SHEETS_CHUNK, type SheetStudent } from "./data";
import { MAX_CARDS, type SheetCard } from "./sheets";
import { renderSigninSheets, SheetsBusyError, SHEETS_RETRY_AFTER_S } from "./sheets-render";

const query = z.object({
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
  return form ? Object.fromEntries([...form.entries()].filter((e): e is [string, string] => typeof e[1] === "string")) : null;
}

/**
 * POST /api/students/sheets with `class=1` (or `ids=…`) as a form: the
 * sign-in sheets PDF for a teacher's own students, as the response. Students
 * without a live code get one (printing again shows the same codes), so this
 * is a POST from the app's own pages: a GET, a link or another site's form
 * changes nothing. Bounded to 1,000 cards.
 */
export async function POST(req: NextRequest) {
  if (!sameOrigin(req.headers, req.url)) return problem(403, "FORBIDDEN");
  const actor = await getActor();
  if (!actor || actor === "disabled") return problem(401, "UNAUTHENTICATED");
  if (actor.role !== "teacher") return problem(403, "FORBIDDEN");
  const school = await authorizeSchool(actor, undefined);
  if (!school) return problem(403, "FORBIDDEN");
  const parsed = query.safeParse(await bodyFields(req));
  if (!parsed.success) return problem(400, "VALIDATION");

  const ids = await listStudentIdsForSheets(school, { className: parsed.data.class, ids: parsed.data.ids }, MAX_CARDS);
  if (ids.length > MAX_CARDS) return problem(413, "VALIDATION");
  if (ids.length === 0) return problem(404, "NOT_FOUND");

  const key = env().SIGNIN_CODE_KEY;
  // a card is the child's: their own display language (the students' default when none is set), not the teacher's
  const langOf = (s: SheetStudent) => toDisplayLanguage(s.displayLanguage ?? defaultLanguageFor("student"));
  const t = await getTranslations("Sheets");
  const kana = await getTranslations({ locale: "ja-Hrkt", namespace: "Sheets" });
  const students_ = await getTranslations("Students");
  const printed = { cards: 0, issued: 0, plainOnly: true };
  // the cards a chunk of students at a time, read when the renderer's turn comes (lib/students/sheets-render.ts):
  // the event loop that serves live classes runs between chunks, and the print never holds every student at once
  async function* cards(): AsyncGenerator<SheetCard[]> {
    for (let i = 0; i < ids.length; i += SHEETS_CHUNK) {
      const students = await readSheetStudents(school!, ids.slice(i, i + SHEETS_CHUNK));
      // students without a live code get one (printing again shows the same codes)
      const issued = await issueFirstCodes(students.filter((s) => s.codeEncrypted === null).map((s) => s.id));
      printed.issued += issued.size;
      printed.cards += students.length;
      yield students.map((s) => {
        if (langOf(s) !== "ja") printed.plainOnly = false;
        const code = s.codeEncrypted === null ? (issued.get(s.id) ?? "") : decryptCode(s.codeEncrypted, key);
        return {
          name: langOf(s) === "ja-kana" && s.nameKana ? s.nameKana : (s.name ?? ""),
          reading: langOf(s) === "ja-ruby" ? s.nameKana : null,
          classLine:
            s.student?.grade != null && s.student.className !== null
              ? `${toPlainText(students_("classLabel", { grade: s.student.grade, className: s.student.className }), langOf(s))} ${s.student.number ?? ""}`.trim()
              : "",
          school: s.school?.name ?? "",
          url: signinCodeUrl(code), // the configured public address, never the request's Host
        };
      });
    }
  }
  // the instructions are printed once for the whole sheet: in kana unless every child reads plain Japanese
  const pdf = await renderSigninSheets(cards(), () => {
    const texts = printed.plainOnly ? t : kana;
    return { keepSecret: toPlainText(texts("keepSecret"), "ja"), howTo: toPlainText(texts("howTo"), "ja") };
  }).catch((error: unknown) => {
    if (error instanceof SheetsBusyError) return null;
    throw error;
  });
  if (!pdf) {
    const busy = problem(503, "RATE_LIMITED");
    busy.headers.set("Retry-After", String(SHEETS_RETRY_AFTER_S));
    return busy;
  }
  await audit({ action: "signinCode.print", actorId: actor.id, schoolId: school, meta: { count: printed.cards, issued: printed.issued } });
  return new NextResponse(new Uint8Array(pdf.buffer as ArrayBuffer, pdf.byteOffset, pdf.byteLength), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="signin-sheets.pdf"`,
      "Cache-Control": "no-store",
    },
  });
}
