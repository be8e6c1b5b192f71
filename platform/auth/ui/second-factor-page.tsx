import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { RichText } from "@/platform/ui/rich-text";
import { ClientMessages, CLIENT_NAMESPACES } from "@/platform/ui/layout/client-messages";
import { signOutAction } from "../actions";
import { afterSecondFactor } from "../second-factor";
import { confirmPendingEnrolmentAction, startPendingEnrolmentAction } from "../second-factor-actions";
import { readFactorState } from "../second-factor-queries";
import { getPendingSignin } from "../session";
import { AuthCard } from "./auth-card";
import { PasskeySignin } from "./passkey-buttons";
import { SecondFactorForm } from "./second-factor-form";
import { TotpEnrol } from "./totp-enrol";

type Params = Promise<Record<string, string | string[] | undefined>>;

/**
 * /auth/second-factor: a staff sign-in waiting for its second factor asks for one of the person's passkeys, a code of
 * their app or a recovery code; someone with none of them whose academy requires one sets up an app here first. Anyone else is told
 * there is nothing to confirm.
 */
export async function SecondFactorPage({ searchParams }: { searchParams: Params }) {
  const pending = await getPendingSignin();
  if (!pending) return <NothingPending />;
  const [state, t, { from }] = await Promise.all([
    readFactorState(pending.id),
    getTranslations("SecondFactor"),
    searchParams,
  ]);
  const fromPath = typeof from === "string" ? from : null;
  const enrol = !state?.totp && !state?.passkeys;
  const codes = Boolean(state?.totp || state?.recoveryLeft);
  return (
    <ClientMessages namespaces={[...CLIENT_NAMESPACES.base, "SecondFactor"]}>
      <AuthCard labelledBy="second-factor-title">
        <h1 id="second-factor-title">
          <RichText text={t(enrol ? "enrolTitle" : codes ? "title" : "settingsTitle")} />
        </h1>
        {enrol || codes ? (
          <p className="muted">
            <RichText text={t(enrol ? "enrolRequired" : "lead")} />
          </p>
        ) : null}
        {enrol ? (
          <TotpEnrol
            start={startPendingEnrolmentAction}
            confirm={confirmPendingEnrolmentAction}
            doneHref={afterSecondFactor(pending.role, fromPath)}
          />
        ) : (
          <>
            {state?.passkeys ? <PasskeySignin from={fromPath} /> : null}
            {state?.passkeys && codes ? (
              <p className="muted">
                <RichText text={t("passkeyOrCode")} />
              </p>
            ) : null}
            {codes ? <SecondFactorForm from={fromPath} /> : null}
          </>
        )}
        <form action={signOutAction}>
          <button type="submit" className="button button-ghost" data-testid="second-factor-signout">
            <RichText text={t("signOut")} />
          </button>
        </form>
      </AuthCard>
    </ClientMessages>
  );
}

/** No sign-in of this browser waits for a code (signed out, signed in, or it ended): back to the sign-in form. */
async function NothingPending() {
  const t = await getTranslations("SecondFactor");
  return (
    <AuthCard labelledBy="second-factor-title">
      <h1 id="second-factor-title">
        <RichText text={t("title")} />
      </h1>
      <p className="alert alert-info" data-testid="second-factor-none">
        <RichText text={t("nothingPending")} />
      </p>
      <Link href="/signin">
        <RichText text={t("backToSignin")} />
      </Link>
    </AuthCard>
  );
}
