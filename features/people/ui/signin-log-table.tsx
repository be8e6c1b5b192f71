import { getTranslations } from "next-intl/server";
import type { SigninLogRow } from "@/features/people/server/signin-log-queries";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";
import { TableHead } from "@/platform/ui/table-head";

const REASONS = [
  "wrongPassword",
  "userNotFound",
  "userDisabled",
  "invalidCode",
  "revokedOrExpired",
  "unknown",
  "tooManyRequests",
] as const;
type Reason = (typeof REASONS)[number];
const isReason = (value: string | null): value is Reason => REASONS.includes(value as Reason);

/**
 * The log's entries, newest first: time in school time (JST), the person (a manager's view), method, result with its
 * reason, client address and user agent. A change names its action as stored (e.g. `student.create`).
 */
export async function SigninLogTable({ rows, showPerson }: { rows: SigninLogRow[]; showPerson: boolean }) {
  const [t, lang] = await Promise.all([getTranslations("SigninLog"), getDisplayLanguage()]);
  const labels = [
    t("at"),
    ...(showPerson ? [t("person")] : []),
    t("method"),
    t("result"),
    t("address"),
    t("userAgent"),
  ];
  return (
    <div className="table-wrap">
      <table className="table signin-log-table" data-testid="signin-log-table">
        <TableHead labels={labels} />
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-testid="signin-log-row" data-method={row.method} data-result={row.result}>
              <td className="nowrap">
                <time dateTime={row.at.toISOString()}>
                  <RichText text={formatDateTime(row.at, lang)} />
                </time>
              </td>
              {showPerson ? (
                <td>
                  {row.name ? <div>{row.name}</div> : null}
                  <div className="muted small">{row.email ?? <RichText text={t("noAccount")} />}</div>
                </td>
              ) : null}
              <td>
                <RichText text={t(`methods.${row.method}`)} />
                {row.method === "change" ? <div className="muted small mono">{row.action}</div> : null}
              </td>
              <td className={`signin-result-${row.result}`}>
                <RichText text={t(`results.${row.result}`)} />
                {row.reason ? (
                  <div className="small">
                    {isReason(row.reason) ? <RichText text={t(`reasons.${row.reason}`)} /> : row.reason}
                  </div>
                ) : null}
              </td>
              <td className="mono">{row.ip ?? ""}</td>
              <td className="muted small signin-user-agent">{row.userAgent ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
