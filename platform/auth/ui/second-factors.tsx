import { getTranslations } from "next-intl/server";
import { RichText } from "@/platform/ui/rich-text";
import { confirmTotpEnrolmentAction, startTotpEnrolmentAction } from "../second-factor-actions";
import { readFactorState } from "../second-factor-queries";
import { Passkeys } from "./passkeys";
import { RemoveSecondFactorButton, RenewRecoveryCodesButton } from "./second-factor-buttons";
import { TotpEnrol } from "./totp-enrol";

/**
 * A teacher's or manager's second factor (platform/auth/second-factor.ts), beside their signed-in devices: set up
 * an authenticator app, or, with one, renew the recovery codes or remove it; and their passkeys. During the academy's grace period the
 * reminder above every staff page (second-factor-reminder.tsx) says so, once.
 */
export async function SecondFactors({ userId }: { userId: string }) {
  const [t, state] = await Promise.all([getTranslations("SecondFactor"), readFactorState(userId)]);
  if (!state) return null;
  return (
    <section className="stack second-factors" data-testid="second-factors" aria-labelledby="second-factors-title">
      <h2 id="second-factors-title">
        <RichText text={t("settingsTitle")} />
      </h2>
      <p className="muted">
        <RichText text={t("settingsLead")} />
      </p>
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
      <Passkeys userId={userId} />
    </section>
  );
}
