import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { getActor, getPendingSignin, SECOND_FACTOR_PATH } from "@/platform/auth/session";
import { AuthCard } from "@/platform/auth/ui/auth-card";
import { getPlainText } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";
import { Spinner } from "@/platform/ui/spinner";
import { TOOL_PATHS } from "@/features/lti/shared/claims";
import { deepLinkWaiting } from "@/features/lti/server/deep-link";
import { pickableActivities } from "@/features/lti/server/deep-link-queries";
import { DeepLinkPicker } from "./deep-link-picker";

type Params = Promise<Record<string, string | string[] | undefined>>;

/** The staff member this page serves; a sign-in waiting for its second factor goes to that step and comes back. */
async function pickerActor(request: string) {
  const actor = await getActor();
  if (actor === "disabled") redirect("/auth/ended?reason=userDisabled");
  if (!actor && (await getPendingSignin()))
    redirect(`${SECOND_FACTOR_PATH}?from=${encodeURIComponent(`${TOOL_PATHS.deepLink}?request=${request}`)}`);
  return actor && actor.role !== "student" ? { ...actor, role: actor.role } : null;
}

/**
 * /lti/deep-link?request=…: where a deep linking request from the 学習eポータル lands (features/lti/README.md): the
 * staff member's active activities, one button each; the pick posts to /api/lti/deep-link, which sends the signed
 * link back to the portal. Without a request waiting for the signed-in staff member, it says so and shows nothing.
 */
export async function LtiDeepLinkPage({ searchParams }: { searchParams: Params }) {
  const { request } = await searchParams;
  const secret = typeof request === "string" ? request : "";
  const [t, plain, actor] = await Promise.all([getTranslations("LtiDeepLink"), getPlainText(), pickerActor(secret)]);
  const waiting = actor !== null && (await deepLinkWaiting(secret, actor.id));
  const activities = waiting && actor ? await pickableActivities(actor) : [];
  return (
    <AuthCard labelledBy="lti-deep-link-title">
      <h1 id="lti-deep-link-title">
        <RichText text={t("title")} />
      </h1>
      {!waiting ? (
        <p className="alert alert-warning" role="alert" data-testid="deep-link-none">
          <RichText text={t("none")} />
        </p>
      ) : activities.length === 0 ? (
        <p className="alert alert-warning" data-testid="deep-link-empty">
          <RichText text={t("empty")} />
        </p>
      ) : (
        <>
          <p className="muted">
            <RichText text={t("lead")} />
          </p>
          <DeepLinkPicker
            action={TOOL_PATHS.deepLinkPick}
            request={secret}
            listLabel={plain(t("listLabel"))}
            sending={<Spinner size="small" label={plain(t("sending"))} />}
            activities={activities.map((a) => ({
              id: a.id,
              title: <RichText text={a.title} />,
              label: plain(t("choose", { title: plain(a.title) })),
              school: actor?.role === "manager" ? <RichText text={a.school.name} /> : null,
            }))}
          />
        </>
      )}
    </AuthCard>
  );
}

/** While the page loads. */
export async function LtiDeepLinkLoading() {
  const [t, plain] = await Promise.all([getTranslations("Common"), getPlainText()]);
  return (
    <AuthCard>
      <Spinner label={plain(t("loading"))} />
    </AuthCard>
  );
}
