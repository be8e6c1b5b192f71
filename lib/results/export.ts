import "server-only";
import { type NextRequest, NextResponse } from "next/server";
import { z } from "zod";
import { audit } from "@/lib/audit/log";
import { STAFF_ROLES } from "@/lib/auth/roles";
import type { Actor } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { problem } from "@/lib/http";
import { getDisplayLanguage } from "@/lib/i18n/server";
import { defineRoute } from "@/lib/route";
import { type AuthorizedSchoolId, authorizeSchool } from "@/lib/schools/scope";
import { csvRecordCount, csvRow } from "./csv";
import { csvEncoder, csvEncodingOf } from "./csv-encoding";
import { csvTexts } from "./csv-text";
import { researchHeader, researchRows, resultsCsv } from "./export-data";
import { filterFromParams } from "./schema";
import { activityStats } from "./stats";
import { errorField, log } from "@/lib/ops/log";

/** Who asks for an export, and of which activity of which school. */
export interface ExportAccess {
  actor: Actor;
  school: AuthorizedSchoolId;
  activity: { id: string; title: string };
}

/**
 * GET /api/v1/exports/{activityId}/…: staff (defineRoute), then the activity in scope of their school
 * (manager: ?school=); anyone else's or none is 404, as for a missing activity. Then `run` with both.
 */
export function defineExportRoute(
  run: (req: NextRequest, access: ExportAccess, activityId: string) => Promise<Response>,
) {
  return defineRoute({
    roles: STAFF_ROLES,
    async run(req, actor, activityId: string) {
      const school = await authorizeSchool(actor, req.nextUrl.searchParams.get("school") ?? undefined);
      if (!school || !z.uuid().safeParse(activityId).success) return problem(404, "NOT_FOUND");
      const activity = await db().activity.findFirst({
        where: { id: activityId, schoolId: school },
        select: { id: true, title: true },
      });
      if (!activity) return problem(404, "NOT_FOUND");
      return run(req, { actor, school, activity }, activityId);
    },
  });
}

/** A value for filename*: percent-encoded UTF-8, with the ' ( ) * ! that encodeURIComponent leaves but RFC 5987 does not allow. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The response headers of a downloaded file: its type, and its name in the
 * user's language (RFC 5987 filename*), with an ASCII name for old clients.
 */
export function attachmentHeaders(contentType: string, ascii: string, name: string) {
  const disposition = `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
  return { "Content-Type": contentType, "Content-Disposition": disposition, "Cache-Control": "no-store" };
}
const csvHeaders = (contentType: string, ascii: string, name: string) =>
  attachmentHeaders(contentType, `${ascii}.csv`, `${name}.csv`);

/** One log line per export served (the audit line says who asked; this one says what left, once it has). */
const logExport = (kind: string, activityId: string, userId: string, rows: number) =>
  log().info({ event: "export.done", export: kind, activityId, userId, rows }, "export");

/** GET /api/v1/exports/{activityId}/results?group=&class=&mode=&encoding=sjis: the stats screen as CSV. */
export const resultsExport = defineExportRoute(async (req, access, activityId) => {
  const filter = filterFromParams(req.nextUrl.searchParams);
  const stats = await activityStats(access.school, activityId, filter);
  if (!stats) return problem(404, "NOT_FOUND");
  await audit({
    action: "export.results",
    actorId: access.actor.id,
    schoolId: access.school,
    targetType: "activity",
    targetId: activityId,
    meta: { filter },
  });
  const lang = await getDisplayLanguage();
  const encoder = csvEncoder(csvEncodingOf(req.nextUrl.searchParams.get("encoding")));
  const name = csvTexts(lang).fileName("fileResults", access.activity.title);
  const csv = resultsCsv(stats, lang);
  logExport("results", activityId, access.actor.id, csvRecordCount(csv) - 1);
  return new NextResponse(encoder.encode(csv), {
    headers: csvHeaders(encoder.contentType, `results-${activityId.slice(0, 8)}`, name),
  });
});

/** GET /api/v1/exports/{activityId}/responses[?pseudonymous=1][&encoding=sjis]: one row per response, streamed. */
export const researchExport = defineExportRoute(async (req, access, activityId) => {
  const pseudonymous = req.nextUrl.searchParams.get("pseudonymous") === "1";
  await audit({
    action: "export.responses",
    actorId: access.actor.id,
    schoolId: access.school,
    targetType: "activity",
    targetId: activityId,
    meta: { pseudonymous },
  });
  const lang = await getDisplayLanguage();
  const rows = researchRows(access.school, activityId, pseudonymous, lang);
  const encoder = csvEncoder(csvEncodingOf(req.nextUrl.searchParams.get("encoding")));
  let written = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(researchHeader(pseudonymous, lang))));
    },
    async pull(controller) {
      try {
        const next = await rows.next();
        if (next.done) {
          controller.close();
          logExport(pseudonymous ? "pseudonymous" : "responses", activityId, access.actor.id, written);
        } else {
          written += csvRecordCount(next.value);
          controller.enqueue(encoder.encode(next.value));
        }
      } catch (error) {
        log().error(
          { event: "export.failed", export: "responses", activityId, userId: access.actor.id, ...errorField(error) },
          "export failed",
        );
        controller.error(error);
      }
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const name = csvTexts(lang).fileName(pseudonymous ? "filePseudonymous" : "fileResponses", access.activity.title);
  return new Response(stream, {
    headers: csvHeaders(
      encoder.contentType,
      `responses-${activityId.slice(0, 8)}${pseudonymous ? "-pseudonymous" : ""}`,
      name,
    ),
  });
});
