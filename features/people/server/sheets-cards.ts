// No "server-only" here: this runs in the sign-in sheets renderer process (sheets-worker.mjs, started
// by sheets-render.ts), outside Next's server bundle, with a database client of its own.
import { createTranslator } from "use-intl/core";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { defaultLanguageFor, type DisplayLanguage, localeTagOf, toDisplayLanguage } from "@/platform/i18n/languages";
import { loadMessages } from "@/platform/i18n/messages";
import { toPlainText } from "@/platform/richtext/plain";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { decryptCode } from "@/platform/auth/signin-code-crypto";
import { issueFirstCodes } from "@/features/people/server/signin-code-commands";
import { signinCodeUrl } from "@/features/people/shared/signin-code-url";
import { readSheetStudents, SHEETS_CHUNK } from "./queries";
import type { SheetCard, SheetTexts } from "./sheets";

/**
 * One print, as the sheets route hands it to the renderer process: the students (their ids in class
 * order, all of the school the route authorized) and what the renderer needs to make their cards. The
 * database address and the code key travel in this message, never in the renderer's environment.
 */
export interface SheetJob {
  schoolId: AuthorizedSchoolId;
  ids: string[];
  /** The teacher's display language (the class line's words, and the instructions when every child reads plain Japanese). */
  lang: DisplayLanguage;
  /** The configured public address the QR codes carry (never a request's Host). */
  origin: string;
  key: string;
  database: { url: string; connectMs: number; statementMs: number; pooled: boolean };
}

export interface MadeCards {
  cards: SheetCard[];
  texts: SheetTexts;
  /** Students who had no live code and were given their first one. */
  issued: number;
}

/**
 * The cards of a print, SHEETS_CHUNK students at a time: read, given a first code when they have none
 * (printing again shows the same codes), each in the child's own display language (the students'
 * default when none is set), not the teacher's. The instructions are printed once for the whole sheet:
 * in kana unless every child reads plain Japanese.
 */
export async function makeSheetCards(client: PrismaClient, job: SheetJob): Promise<MadeCards> {
  const classLabel = createTranslator({
    locale: localeTagOf(job.lang),
    messages: loadMessages(job.lang),
    namespace: "Students",
  });
  const cards: SheetCard[] = [];
  let issued = 0;
  let plainOnly = true;
  for (let i = 0; i < job.ids.length; i += SHEETS_CHUNK) {
    const students = await readSheetStudents(job.schoolId, job.ids.slice(i, i + SHEETS_CHUNK), client);
    const codes = await issueFirstCodes(
      students.filter((s) => s.codeEncrypted === null).map((s) => s.id),
      job.key,
      client,
    );
    issued += codes.size;
    for (const s of students) {
      const lang = toDisplayLanguage(s.displayLanguage ?? defaultLanguageFor("student"));
      if (lang !== "ja") plainOnly = false;
      const code = s.codeEncrypted === null ? (codes.get(s.id) ?? "") : decryptCode(s.codeEncrypted, job.key);
      const seat = s.student;
      cards.push({
        name: lang === "ja-kana" && s.nameKana ? s.nameKana : (s.name ?? ""),
        reading: lang === "ja-ruby" ? s.nameKana : null,
        classLine:
          seat?.grade != null && seat.className !== null
            ? `${toPlainText(classLabel("classLabel", { grade: seat.grade, className: seat.className }), lang)} ${seat.number ?? ""}`.trim()
            : "",
        school: s.school?.name ?? "",
        url: signinCodeUrl(code, job.origin),
      });
    }
  }
  const textsLang: DisplayLanguage = plainOnly ? job.lang : "ja-kana";
  const sheets = createTranslator({
    locale: localeTagOf(textsLang),
    messages: loadMessages(textsLang),
    namespace: "Sheets",
  });
  return {
    cards,
    issued,
    texts: { keepSecret: toPlainText(sheets("keepSecret"), "ja"), howTo: toPlainText(sheets("howTo"), "ja") },
  };
}
