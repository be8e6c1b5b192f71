import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/platform/auth/ui/auth-card";
import { RichText } from "@/platform/ui/rich-text";

/**
 * /lti/open: what a launched person sees inside the portal's iframe where the sign-in form would be (after signing
 * out, or once their session has ended). The sign-in form is never framed (docs/security.md "Framing and cookies of
 * LTI sessions"): this page links to it in a new window instead, and holds no form.
 */
export async function LtiOpenWindowPage() {
  const t = await getTranslations("LtiLaunch");
  return (
    <AuthCard labelledBy="lti-open-title">
      <h1 id="lti-open-title">
        <RichText text={t("openTitle")} />
      </h1>
      <p className="muted">
        <RichText text={t("openHelp")} />
      </p>
      <p>
        <a className="button" href="/signin" target="_blank" rel="noopener" data-testid="lti-open-window">
          <RichText text={t("openLink")} />
        </a>
      </p>
    </AuthCard>
  );
}
