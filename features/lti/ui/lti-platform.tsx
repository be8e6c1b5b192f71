"use client";
import { useTranslations } from "next-intl";
import type { LtiPlatformView } from "@/features/lti/server/platform-queries";
import type { AcademyScores } from "@/features/lti/server/score-queries";
import { removeLtiPlatformAction, setLtiPlatformAction } from "@/features/lti/server/actions";
import { TOOL_PATHS } from "@/features/lti/shared/claims";
import type { ErrorCode } from "@/platform/errors";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { AcademySettingCard, SettingField } from "./academy-setting-card";

const FIELDS = [
  ["issuer", "issuer"],
  ["clientId", "clientId"],
  ["deploymentIds", "deploymentIds"],
  ["authLoginUrl", "authLoginUrl"],
  ["tokenUrl", "tokenUrl"],
  ["jwksUrl", "jwksUrlField"],
  ["identityClaim", "identityClaim"],
] as const;

function valueOf(current: LtiPlatformView | null, name: (typeof FIELDS)[number][0]): string {
  if (!current) return name === "identityClaim" ? "sub" : "";
  return name === "deploymentIds" ? current.deploymentIds.join(", ") : current[name];
}

/** The URLs the manager copies into the portal: login initiation, launch (redirect URI), our JWKS, an activity link. */
function ToolUrls({ origin }: { origin: string }) {
  const t = useTranslations("LtiPlatform");
  return (
    <div className="stack" data-testid="lti-tool-urls">
      <p>
        <RichTextClient text={t("copyLead")} />
      </p>
      <p data-testid="lti-login-url">
        <RichTextClient text={t("loginUrl", { url: `${origin}${TOOL_PATHS.login}` })} />
      </p>
      <p data-testid="lti-launch-url">
        <RichTextClient text={t("launchUrl", { url: `${origin}${TOOL_PATHS.launch}` })} />
      </p>
      <p data-testid="lti-jwks-url">
        <RichTextClient text={t("jwksUrl", { url: `${origin}${TOOL_PATHS.jwks}` })} />
      </p>
      <p className="muted">
        <RichTextClient text={t("linkUrl", { url: `${origin}${TOOL_PATHS.activity}` })} />
      </p>
    </div>
  );
}

/**
 * The academy's LTI 1.3 platform (a 学習eポータル) on the schools screen: what is registered, the URLs to copy into
 * the portal, registered or replaced in a dialog, removed in another.
 */
/** The scores sent to the portal (AGS): how many wait, were sent, failed or were refused, and its last error. */
function ScoreState({ scores }: { scores: AcademyScores }) {
  const t = useTranslations("LtiPlatform");
  return (
    <div className="stack" data-testid="lti-scores">
      <p
        data-testid="lti-score-counts"
        data-waiting={scores.waiting}
        data-sent={scores.sent}
        data-failed={scores.failed}
      >
        <RichTextClient text={t("scores", { waiting: scores.waiting, sent: scores.sent, failed: scores.failed })} />
      </p>
      {scores.lastError ? (
        <p className="muted" data-testid="lti-score-last-error">
          <RichTextClient text={t("scoresLastError", { error: scores.lastError })} />
        </p>
      ) : null}
    </div>
  );
}

export function LtiPlatform({
  current,
  scores,
  origin,
}: {
  current: LtiPlatformView | null;
  scores: AcademyScores | null;
  origin: string;
}) {
  const t = useTranslations("LtiPlatform");
  const edit = {
    testId: "edit-lti-platform",
    label: t("edit"),
    title: t("dialogTitle"),
    action: (v: Record<string, string>) => setLtiPlatformAction(v),
    success: t("saved"),
    failure: (code: ErrorCode) =>
      code === "VALIDATION" ? t("invalid") : code === "CONFLICT" ? t("taken") : t("failed"),
    fields: FIELDS.map(([name, label]) => (
      <SettingField
        key={name}
        name={name}
        label={t(label)}
        value={valueOf(current, name)}
        maxLength={name === "deploymentIds" ? 4000 : 500}
      />
    )),
  };
  const remove = {
    testId: "remove-lti-platform",
    label: t("remove"),
    confirm: t("removeConfirm"),
    action: () => removeLtiPlatformAction({}),
    success: t("removed"),
    failure: t("failed"),
  };
  return (
    <AcademySettingCard
      id="lti-heading"
      testId="lti-platform"
      title={t("title")}
      edit={edit}
      remove={current ? remove : null}
    >
      {current ? (
        <p data-testid="lti-platform-value" data-issuer={current.issuer}>
          <RichTextClient
            text={t("set", {
              issuer: current.issuer,
              clientId: current.clientId,
              deployments: current.deploymentIds.join(", "),
            })}
          />
        </p>
      ) : (
        <p data-testid="lti-platform-value" data-issuer="">
          <RichTextClient text={t("unset")} />
        </p>
      )}
      {scores ? <ScoreState scores={scores} /> : null}
      <ToolUrls origin={origin} />
    </AcademySettingCard>
  );
}
