"use client";
import { useTranslations } from "next-intl";
import { setSecondFactorPolicyAction } from "@/features/people/server/school-actions";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** The academy's second-factor policy on the schools screen: shown, and set in a dialog. */
export function SecondFactorPolicy({ require, graceDay }: { require: boolean; graceDay: string }) {
  const t = useTranslations("Schools");
  const plain = usePlainText();
  const state = !require ? t("mfaOff") : graceDay ? t("mfaGrace", { day: graceDay }) : t("mfaOn");
  return (
    <section className="card stack" aria-labelledby="mfa-policy-heading" data-testid="mfa-policy">
      <div className="row">
        <h2 id="mfa-policy-heading">
          <RichTextClient text={t("mfaTitle")} />
        </h2>
        <span className="top-bar-spacer" />
        <FormDialog
          label={t("mfaEdit")}
          title={t("mfaTitle")}
          testId="edit-mfa-policy"
          submit={t("save")}
          action={(v) => setSecondFactorPolicyAction({ require: v.require ?? "off", graceUntil: v.graceUntil ?? "" })}
          success={t("mfaSaved")}
          failure={() => t("failed")}
        >
          <label className="field">
            <span className="field-label">
              <RichTextClient text={t("mfaRequire")} />
            </span>
            <select name="require" defaultValue={require ? "on" : "off"} data-testid="mfa-require">
              <option value="off">{plain(t("mfaChoiceOff"))}</option>
              <option value="on">{plain(t("mfaChoiceOn"))}</option>
            </select>
          </label>
          <label className="field">
            <span className="field-label">
              <RichTextClient text={t("mfaGraceField")} />
            </span>
            <input name="graceUntil" type="date" defaultValue={graceDay} data-testid="mfa-grace" />
          </label>
          <p className="muted">
            <RichTextClient text={t("mfaHelp")} />
          </p>
        </FormDialog>
      </div>
      <p data-testid="mfa-policy-value" data-require={require}>
        <RichTextClient text={state} />
      </p>
    </section>
  );
}
