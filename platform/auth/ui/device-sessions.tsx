import { getTranslations } from "next-intl/server";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";
import { TableHead } from "@/platform/ui/table-head";
import { deviceLabel } from "../device-label";
import { listOpenDeviceSessions } from "../device-session-queries";
import { currentDeviceId } from "../session";
import { EndDeviceButton, EndOtherDevicesButton } from "./device-session-buttons";

const METHODS = ["password", "google", "entra", "oidc", "lti", "code"] as const;
const isKnownMethod = (m: string): m is (typeof METHODS)[number] => (METHODS as readonly string[]).includes(m);

/**
 * A teacher's or manager's signed-in devices (platform/auth/device-sessions.ts), newest first: the device as its
 * browser and system, how and when it signed in, its address and last use; "this device" marked, any other can be
 * signed out, or all others at once.
 */
export async function DeviceSessions({ userId }: { userId: string }) {
  const [t, lang, rows, current] = await Promise.all([
    getTranslations("DeviceSessions"),
    getDisplayLanguage(),
    listOpenDeviceSessions(userId),
    currentDeviceId(),
  ]);
  const others = rows.filter((r) => r.id !== current).length;
  const method = (m: string) => (isKnownMethod(m) ? t(`methods.${m}`) : m);
  return (
    <section className="stack device-sessions" data-testid="device-sessions" aria-labelledby="device-sessions-title">
      <div className="row page-head">
        <h2 id="device-sessions-title">
          <RichText text={t("title")} />
        </h2>
        <span className="top-bar-spacer" />
        {others > 0 ? <EndOtherDevicesButton /> : null}
      </div>
      <p className="muted">
        <RichText text={t("lead")} />
      </p>
      <div className="table-wrap">
        <table className="table" data-testid="device-sessions-table">
          <TableHead labels={[t("device"), t("signedIn"), t("lastSeen"), t("address"), ""]} />
          <tbody>
            {rows.map((row) => {
              const label = deviceLabel(row.userAgent) ?? t("unknownDevice");
              return (
                <tr key={row.id} data-testid="device-session" data-current={row.id === current}>
                  <td>
                    <RichText text={label} />
                    {row.id === current ? (
                      <span className="badge" data-testid="this-device">
                        <RichText text={t("thisDevice")} />
                      </span>
                    ) : null}
                    <div className="muted small">
                      <RichText text={method(row.method)} />
                    </div>
                  </td>
                  <td className="nowrap">{formatDateTime(row.createdAt, lang)}</td>
                  <td className="nowrap">{formatDateTime(row.lastSeenAt, lang)}</td>
                  <td className="mono">{row.ip ?? ""}</td>
                  <td>{row.id === current ? null : <EndDeviceButton sessionId={row.id} device={label} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {others === 0 ? (
        <p className="muted" data-testid="device-sessions-none">
          <RichText text={t("none")} />
        </p>
      ) : null}
    </section>
  );
}
