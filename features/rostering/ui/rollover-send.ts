import type { ActionResult, ErrorCode } from "@/platform/errors";
import type { RolloverResult } from "@/features/rostering/server/rollover-commands";
import { bodyOf } from "@/features/rostering/ui/roster-send";

const CODES: Record<number, ErrorCode> = {
  400: "VALIDATION",
  401: "UNAUTHENTICATED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "VALIDATION",
  429: "RATE_LIMITED",
};

/**
 * The rollover with next year's set: POST /api/v1/rollover/{schoolId} with the files as the roster
 * page sends them (features/rostering/server/rollover-route.ts). `apply` false: the preview (nothing changes); `confirmName`:
 * the school's name as typed, when the apply graduates anyone. The answer
 * as an action result, so the page reports failures as it does for the rollover without a set.
 */
export async function rolloverWithSet(
  schoolId: string,
  expectedYear: number,
  topGrade: number,
  files: File[],
  apply: boolean,
  confirmName?: string,
): Promise<ActionResult<RolloverResult> & { status?: number }> {
  const query = new URLSearchParams({
    expectedYear: String(expectedYear),
    topGrade: String(topGrade),
    ...(apply ? { apply: "1" } : {}),
    ...(confirmName ? { confirmName } : {}),
  });
  try {
    const res = await fetch(`/api/v1/rollover/${encodeURIComponent(schoolId)}?${query}`, {
      method: "POST",
      ...bodyOf(files),
    });
    if (!res.ok) return { ok: false, code: CODES[res.status] ?? "INTERNAL", status: res.status };
    return { ok: true, data: (await res.json()) as RolloverResult };
  } catch {
    return { ok: false, code: "INTERNAL", status: 0 };
  }
}
