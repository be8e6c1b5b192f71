import { getTranslations } from "next-intl/server";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";
import { policyStanding } from "../second-factor";
import { confirmTotpEnrolmentAction, startTotpEnrolmentAction } from "../second-factor-actions";
import { readFactorState } from "../second-factor-queries";
import { RemoveSecondFactorButton, RenewRecoveryCodesButton } from "./second-factor-buttons";
import { TotpEnrol } from "./totp-enrol";

/**
 * A teacher's or manager's second factor (platform/auth/second-factor.ts), beside their signed-in devices: set up
 * an authenticator app, or, with one, renew the recovery codes or remove it; the academy's policy when it has one.
 */
export async function SecondFactors({ userId }: { userId: string }) {
  const [t, lang, state] = await Promise.all([
    getTranslations("SecondFactor"),
    getDisplayLanguage(),
    readFactorState(userId),
  ]);
  if (!state) return null;
  const standing = policyStanding(state);
  return (
    <section className="stack second-factors" data-testid="second-factors" aria-labelledby="second-factors-title">
      <h2 id="second-factors-title">
        <RichText text={t("settingsTitle")} />
      </h2>
      <p className="muted">
        <RichText text={t("settingsLead")} />
      </p>
      {standing === "grace" && state.graceUntil ? (
        <p className="alert alert-warning" data-testid="second-factor-grace">
          <RichText text={t("graceBanner", { date: formatDateTime(state.graceUntil, lang) })} />
        </p>
      ) : null}
      {state.totp ? (
        <>
          <p data-testid="second-factor-enabled">
            <RichText text={t("enabled", { count: state.recoveryLeft })} />
          </p>
          <div className="row">
            <RenewRecoveryCodesButton />
            <RemoveSecondFactorButton />
          </div>
        </>
      ) : (
        <TotpEnrol start={startTotpEnrolmentAction} confirm={confirmTotpEnrolmentAction} />
      )}
    </section>
  );
}
