"use client";
import { useTranslations } from "next-intl";
import type { LtiPlatformView } from "@/features/lti/server/platform-queries";
import type { AcademyScores } from "@/features/lti/server/score-queries";
import { removeLtiPlatformAction, setLtiPlatformAction } from "@/features/lti/server/actions";
import { TOOL_PATHS } from "@/features/lti/shared/claims";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";

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
  return (
    <section className="card stack" aria-labelledby="lti-heading" data-testid="lti-platform">
      <div className="row">
        <h2 id="lti-heading">
          <RichTextClient text={t("title")} />
        </h2>
        <span className="top-bar-spacer" />
        <FormDialog
          label={t("edit")}
          title={t("dialogTitle")}
          testId="edit-lti-platform"
          submit={t("edit")}
          action={(v: Record<string, string>) => setLtiPlatformAction(v)}
          success={t("saved")}
          failure={(r) => (r.code === "VALIDATION" ? t("invalid") : r.code === "CONFLICT" ? t("taken") : t("failed"))}
        >
          {FIELDS.map(([name, label]) => (
            <label key={name} className="field">
              <span className="field-label">
                <RichTextClient text={t(label)} />
              </span>
              <input
                name={name}
                maxLength={name === "deploymentIds" ? 4000 : 500}
                defaultValue={valueOf(current, name)}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
          ))}
        </FormDialog>
        {current ? (
          <FormDialog
            label={t("remove")}
            title={t("remove")}
            testId="remove-lti-platform"
            submit={t("remove")}
            action={() => removeLtiPlatformAction({})}
            success={t("removed")}
            failure={() => t("failed")}
          >
            <p>
              <RichTextClient text={t("removeConfirm")} />
            </p>
          </FormDialog>
        ) : null}
      </div>
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
    </section>
  );
}
