import "server-only";
import { NextResponse } from "next/server";
import { audit } from "@/platform/audit/log";
import { problem } from "@/platform/http";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { embedImages } from "@/features/activities/server/image-transfer";
import { csvTexts } from "@/features/activities/server/export-texts";
import { attachmentHeaders } from "@/platform/http/download";
import { defineExportRoute } from "./export-route";
import { getActivityWithScenes } from "./queries";
import { toActivityFile } from "../shared/file-format";
import { ACTIVITY_FILE_MAX_BYTES } from "../shared/file-limits";

/**
 * GET /api/v1/exports/{activityId}/activity[?school=]: the activity as a file
 * another school can import (docs/product-design.md "Sharing activities").
 * The same refusals as the other exports: out of scope is NOT_FOUND.
 */
export const activityFileExport = defineExportRoute(async (_req, access, activityId) => {
  const activity = await getActivityWithScenes(access.school, activityId);
  if (!activity) return problem(404, "NOT_FOUND");
  await audit({
    action: "export.activity",
    actorId: access.actor.id,
    schoolId: access.school,
    targetType: "activity",
    targetId: activityId,
  });
  const name = csvTexts(await getDisplayLanguage()).fileName("fileActivity", activity.title);
  // the images its scenes place travel inside the file (base64), so the other school gets its own copies
  const images = await embedImages(
    access.school,
    activity.scenes.map((s) => s.content),
    ACTIVITY_FILE_MAX_BYTES,
  );
  // more than an import accepts: refused here rather than a file nobody can import
  if (!images) return problem(413, "VALIDATION");
  const file = { ...toActivityFile(activity), ...(Object.keys(images).length > 0 ? { images } : {}) };
  const body = `${JSON.stringify(file, null, 2)}\n`;
  return new NextResponse(body, {
    headers: attachmentHeaders(
      "application/json; charset=utf-8",
      `activity-${activityId.slice(0, 8)}.json`,
      `${name}.json`,
    ),
  });
});
