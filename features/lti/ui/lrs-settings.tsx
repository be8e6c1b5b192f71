"use client";
import { useTranslations } from "next-intl";
import type { AcademyLrsView } from "@/features/lti/server/lrs-queries";
import { removeLrsAction, setLrsAction } from "@/features/lti/server/actions";
import type { ErrorCode } from "@/platform/errors";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { AcademySettingCard, SettingField } from "./academy-setting-card";

/** How many statements wait, were sent, failed or were refused, and the LRS's last error. */
function QueueState({ current }: { current: AcademyLrsView }) {
  const t = useTranslations("Lrs");
  return (
    <div className="stack" data-testid="lrs-queue">
      <p data-testid="lrs-counts" data-waiting={current.waiting} data-sent={current.sent} data-failed={current.failed}>
        <RichTextClient text={t("counts", { waiting: current.waiting, sent: current.sent, failed: current.failed })} />
      </p>
      {current.lastError ? (
        <p className="muted" data-testid="lrs-last-error">
          <RichTextClient text={t("lastError", { error: current.lastError })} />
        </p>
      ) : null}
    </div>
  );
}

/**
 * The academy's Learning Record Store on the schools screen: where the xAPI statements go, whether names go with
 * them, set or replaced in a dialog (the key and secret asked each time, never shown), and the queue's state.
 */
export function LrsSettings({ current }: { current: AcademyLrsView | null }) {
  const t = useTranslations("Lrs");
  const edit = {
    testId: "edit-lrs",
    label: t("edit"),
    title: t("dialogTitle"),
    action: (v: Record<string, string>) => setLrsAction(v),
    success: t("saved"),
    failure: (code: ErrorCode) => (code === "VALIDATION" ? t("invalid") : t("failed")),
    fields: (
      <>
        <SettingField name="endpoint" label={t("endpoint")} value={current?.endpoint ?? ""} />
        <SettingField name="key" label={t("key")} />
        <SettingField name="secret" label={t("secret")} type="password" />
        <label className="field row">
          <input type="checkbox" name="includeNames" defaultChecked={current?.includeNames ?? false} />
          <RichTextClient text={t("includeNames")} />
        </label>
      </>
    ),
  };
  const remove = {
    testId: "remove-lrs",
    label: t("remove"),
    confirm: t("removeConfirm"),
    action: () => removeLrsAction({}),
    success: t("removed"),
    failure: t("failed"),
  };
  return (
    <AcademySettingCard id="lrs-heading" testId="lrs" title={t("title")} edit={edit} remove={current ? remove : null}>
      <p data-testid="lrs-value" data-endpoint={current?.endpoint ?? ""}>
        <RichTextClient
          text={
            current
              ? t("set", { endpoint: current.endpoint, names: current.includeNames ? t("withNames") : t("noNames") })
              : t("unset")
          }
        />
      </p>
      {current ? <QueueState current={current} /> : null}
    </AcademySettingCard>
  );
}
