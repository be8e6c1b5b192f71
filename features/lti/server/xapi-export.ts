import "server-only";
import { audit } from "@/platform/audit/log";
import { attachmentHeaders } from "@/platform/http/download";
import { errorField, log } from "@/platform/ops/log";
import { defineExportRoute } from "@/features/activities/server/export-route";
import { activityStatementLines } from "./lrs-queries";

/**
 * GET /api/v1/exports/{activityId}/xapi: the xAPI statements made for the activity (sent, waiting or not), one JSON
 * object a line, oldest first, streamed; for the staff of its school only (defineExportRoute), in the sign-in log.
 */
export const xapiExport = defineExportRoute(async (_req, access, activityId) => {
  await audit({
    action: "export.xapi",
    actorId: access.actor.id,
    schoolId: access.school,
    targetType: "activity",
    targetId: activityId,
  });
  const lines = activityStatementLines(activityId);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await lines.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        log().error({ event: "export.failed", export: "xapi", activityId, ...errorField(error) }, "export failed");
        controller.error(error);
      }
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const name = `xapi-${activityId.slice(0, 8)}.jsonl`;
  return new Response(stream, { headers: attachmentHeaders("application/x-ndjson; charset=utf-8", name, name) });
});
