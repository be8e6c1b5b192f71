import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { redirect } from "next/navigation";
import { isSigninErrorCode } from "@/platform/auth/errors";
import { academyProvider, oidcProviderIds } from "@/platform/auth/oidc";
import { OIDC_SLUG } from "@/platform/auth/schema";
import { homeOf } from "@/platform/auth/roles";
import { safeFromPath } from "@/platform/auth/schema";
import { getActor } from "@/platform/auth/session";
import { NotifyOnLoad } from "@/platform/ui/notifications";
import { RichText } from "@/platform/ui/rich-text";
import { AuthCard } from "./auth-card";
import { ProviderButton } from "./provider-button";
import { isProviderId } from "./provider-look";
import { SigninForm } from "./signin-form";

type Params = Promise<Record<string, string | string[] | undefined>>;

/** /signin (and /): e-mail and password. A signed-in user goes to their home. */
export async function SigninPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const actor = await getActor();
  if (actor && actor !== "disabled") redirect(homeOf(actor.role));
  const t = await getTranslations("Auth");
  const reset = await getTranslations("Reset");
  // next-auth's own error names (OAuthCallbackError, Configuration, …) come from a provider's round trip.
  const error = isSigninErrorCode(params.error)
    ? params.error
    : typeof params.error === "string"
      ? "providerFailed"
      : null;
  const from = safeFromPath(params.from);
  // /signin?academy=<slug>: the academy's own provider's button too (the link a school prints)
  const academy =
    typeof params.academy === "string" && OIDC_SLUG.test(params.academy) ? await academyProvider(params.academy) : null;
  const providers = oidcProviderIds().filter(isProviderId);
  return (
    <AuthCard labelledBy="signin-title">
      <h1 id="signin-title">
        <RichText text={t("signinTitle")} />
      </h1>
      <p className="muted">
        <RichText text={t("signinLead")} />
      </p>
      <SigninForm from={from} initialError={error} />
      {providers.length > 0 || academy ? (
        <>
          <p className="or-line" aria-hidden="true">
            <RichText text={t("or")} />
          </p>
          {academy ? <ProviderButton provider={academy.id} name={academy.displayName} from={from} /> : null}
          {providers.map((provider) => (
            <ProviderButton key={provider} provider={provider} from={from} />
          ))}
        </>
      ) : null}
      {/* not prefetched: every student's tablet opens this page, only staff ever ask for a reset (3 KB) */}
      <Link href="/auth/forgot" prefetch={false} data-testid="forgot-link">
        <RichText text={t("forgot")} />
      </Link>
      {params.notice === "passwordReset" ? <NotifyOnLoad message={reset("done")} kind="success" /> : null}
    </AuthCard>
  );
}
