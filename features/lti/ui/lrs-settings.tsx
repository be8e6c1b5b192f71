"use client";
import { useTranslations } from "next-intl";
import type { AcademyLrsView } from "@/features/lti/server/lrs-queries";
import { removeLrsAction, setLrsAction } from "@/features/lti/server/actions";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";

function Field({ name, label, type = "text", value }: { name: string; label: string; type?: string; value?: string }) {
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={label} />
      </span>
      <input name={name} type={type} maxLength={500} defaultValue={value} autoComplete="off" spellCheck={false} />
    </label>
  );
}

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

function RemoveLrs() {
  const t = useTranslations("Lrs");
  return (
    <FormDialog
      label={t("remove")}
      title={t("remove")}
      testId="remove-lrs"
      submit={t("remove")}
      action={() => removeLrsAction({})}
      success={t("removed")}
      failure={() => t("failed")}
    >
      <p>
        <RichTextClient text={t("removeConfirm")} />
      </p>
    </FormDialog>
  );
}

/**
 * The academy's Learning Record Store on the schools screen: where the xAPI statements go, whether names go with
 * them, set or replaced in a dialog (the key and secret asked each time, never shown), and the queue's state.
 */
export function LrsSettings({ current }: { current: AcademyLrsView | null }) {
  const t = useTranslations("Lrs");
  return (
    <section className="card stack" aria-labelledby="lrs-heading" data-testid="lrs">
      <div className="row">
        <h2 id="lrs-heading">
          <RichTextClient text={t("title")} />
        </h2>
        <span className="top-bar-spacer" />
        <FormDialog
          label={t("edit")}
          title={t("dialogTitle")}
          testId="edit-lrs"
          submit={t("edit")}
          action={(v: Record<string, string>) => setLrsAction(v)}
          success={t("saved")}
          failure={(r) => (r.code === "VALIDATION" ? t("invalid") : t("failed"))}
        >
          <Field name="endpoint" label={t("endpoint")} value={current?.endpoint ?? ""} />
          <Field name="key" label={t("key")} />
          <Field name="secret" label={t("secret")} type="password" />
          <label className="field row">
            <input type="checkbox" name="includeNames" defaultChecked={current?.includeNames ?? false} />
            <RichTextClient text={t("includeNames")} />
          </label>
        </FormDialog>
        {current ? <RemoveLrs /> : null}
      </div>
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
    </section>
  );
}
