import "server-only";
import type { NextRequest } from "next/server";
import { audit } from "@/platform/audit/log";
import { CSV_BOM, csvRow, tokyoTimestamp } from "@/platform/csv";
import { problem } from "@/platform/http";
import { attachmentHeaders } from "@/platform/http/download";
import { defineRoute } from "@/platform/http/route";
import { parseSigninLogQuery, SIGNIN_LOG_EXPORT_MAX } from "@/features/people/shared/signin-log";
import { exportSigninLog, type SigninLogRow } from "./signin-log-queries";

/** The export's columns (Japanese headers, as the students' CSV template has). */
const HEADER = [
  "日時（日本時間）",
  "日時（UTC）",
  "氏名",
  "メールアドレス",
  "方式",
  "結果",
  "理由",
  "IPアドレス",
  "ユーザーエージェント",
];

const line = (r: SigninLogRow) =>
  csvRow([tokyoTimestamp(r.at), r.at.toISOString(), r.name, r.email, r.method, r.result, r.reason, r.ip, r.userAgent]);

/**
 * GET /api/v1/signin-log/export?…: the manager's academy's log with the page's filters, newest first, as CSV
 * (UTF-8 with a BOM, CRLF; methods and results as codes). More than SIGNIN_LOG_EXPORT_MAX entries: 413, narrow the
 * filter. The export itself is audited.
 */
export const signinLogExportRoute = defineRoute({
  roles: ["manager"],
  run: async (req: NextRequest, manager) => {
    if (!manager.academyId) return problem(403, "FORBIDDEN");
    const q = parseSigninLogQuery(req.nextUrl.searchParams);
    const rows = await exportSigninLog({ academyId: manager.academyId }, q, SIGNIN_LOG_EXPORT_MAX);
    if (!rows) return problem(413, "VALIDATION");
    await audit({
      action: "signinLog.export",
      actorId: manager.id,
      academyId: manager.academyId,
      meta: { rows: rows.length },
    });
    const name = `signin-log-${tokyoTimestamp(new Date()).slice(0, 10)}.csv`;
    return new Response(CSV_BOM + csvRow(HEADER) + rows.map(line).join(""), {
      headers: attachmentHeaders("text/csv; charset=utf-8", name, name),
    });
  },
});
