import "server-only";
import { NextResponse } from "next/server";
import { audit } from "@/platform/audit/log";
import { problem } from "@/platform/http";
import { attachmentHeaders } from "@/platform/http/download";
import { defineExportRoute } from "@/features/activities/server/export-route";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { csvRecordCount, csvRow } from "@/platform/csv";
import { csvEncoder, csvEncodingOf } from "../shared/csv-encoding";
import { csvTexts } from "../../activities/server/export-texts";
import { researchHeader, researchRows, resultsCsv } from "./export-queries";
import { filterFromParams } from "../shared/schema";
import { activityStats } from "./stats";
import { errorField, log } from "@/platform/ops/log";

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
