import { getTranslations } from "next-intl/server";
import { AuthCard } from "@/platform/auth/ui/auth-card";
import { RichText } from "@/platform/ui/rich-text";
import { isLaunchRefusal } from "@/features/lti/shared/claims";

type Params = Promise<Record<string, string | string[] | undefined>>;

/**
 * /lti/refused?reason=…: why a launch from the 学習eポータル did not sign anybody in (features/lti/README.md), in the
 * display language, with what to do. Nothing was changed; the reason is in the academy's sign-in log.
 */
export async function LtiRefusedPage({ searchParams }: { searchParams: Params }) {
  const { reason } = await searchParams;
  const code = isLaunchRefusal(reason) ? reason : "badRequest";
  const t = await getTranslations("LtiLaunch");
  return (
    <AuthCard labelledBy="lti-refused-title">
      <h1 id="lti-refused-title">
        <RichText text={t("refusedTitle")} />
      </h1>
      <p className="alert alert-error" role="alert" data-testid="lti-refused" data-code={code}>
        <span>
          <RichText text={t(`reasons.${code}`)} />
        </span>
      </p>
      <p className="muted">
        <RichText text={t("refusedHelp")} />
      </p>
    </AuthCard>
  );
}
