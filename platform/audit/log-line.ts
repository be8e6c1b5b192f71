import { log } from "@/platform/ops/log";

/** What an audited event's log line says (an entry of the audit log, platform/audit/commands.ts, is one). */
export interface AuditLine {
  action: string;
  actorId?: string | null;
  targetType?: string;
  targetId?: string;
  schoolId?: string | null;
  meta?: unknown;
}

/** Meta fields that may reach the server log (never the e-mail a sign-in failure keeps in the table). */
const LOGGED_META = ["reason", "from", "to", "pseudonymous", "rows"] as const;

/**
 * The audited event as a log line too (docs/architecture.md "Operations"):
 * sign-in failures, exports, mode changes, live sessions, admin actions — by
 * user id, never by name or e-mail. Inside a transaction the line is written
 * when the entry is, before the commit. A statement that writes its own entry in SQL
 * (features/play/server/session-commands.ts setSessionPaused, the production server's game presses:
 * features/play/server/advance-endpoint.ts) calls it once the entry is written. Framework-free.
 */
export function logAudit(entry: AuditLine) {
  const meta =
    entry.meta && typeof entry.meta === "object" && !Array.isArray(entry.meta)
      ? (entry.meta as Record<string, unknown>)
      : {};
  const fields = Object.fromEntries(
    LOGGED_META.filter((key) => meta[key] !== undefined).map((key) => [key, meta[key]]),
  );
  const method = entry.action.startsWith("signin.") ? entry.action.split(".")[1] : undefined; // password, code, google, entra
  const line = {
    event: entry.action,
    method,
    userId: entry.actorId ?? undefined,
    schoolId: entry.schoolId ?? undefined,
    targetType: entry.targetType,
    targetId: entry.targetId,
    ...fields,
  };
  if (entry.action.endsWith(".throttled")) log().warn(line, "audit");
  else log().info(line, "audit");
}
