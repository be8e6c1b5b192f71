"use client";
import { useTranslations } from "next-intl";
import { setEntraTenantAction } from "@/features/people/server/school-actions";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** The academy's Microsoft Entra ID tenant on the schools screen: shown, and set or cleared in a dialog. */
export function EntraTenant({ tenantId }: { tenantId: string | null }) {
  const t = useTranslations("Schools");
  return (
    <section className="card stack" aria-labelledby="entra-heading" data-testid="entra-tenant">
      <div className="row">
        <h2 id="entra-heading">
          <RichTextClient text={t("entraTitle")} />
        </h2>
        <span className="top-bar-spacer" />
        <FormDialog
          label={t("entraEdit")}
          title={t("entraDialogTitle")}
          testId="edit-entra-tenant"
          submit={t("save")}
          action={(v) => setEntraTenantAction({ tenantId: v.tenantId ?? "" })}
          success={t("entraSaved")}
          failure={(result) => (result.code === "VALIDATION" ? t("entraInvalid") : t("failed"))}
        >
          <label className="field">
            <span className="field-label">
              <RichTextClient text={t("entraField")} />
            </span>
            <input name="tenantId" maxLength={64} defaultValue={tenantId ?? ""} autoComplete="off" spellCheck={false} />
          </label>
          <p className="muted">
            <RichTextClient text={t("entraHelp")} />
          </p>
        </FormDialog>
      </div>
      <p data-testid="entra-tenant-value" data-tenant={tenantId ?? ""}>
        <RichTextClient text={tenantId ? t("entraBound", { tenant: tenantId }) : t("entraUnbound")} />
      </p>
    </section>
  );
}
