"use client";
import { useTranslations } from "next-intl";
import { type RefObject, useRef } from "react";
import type { AcademyOidcProviderView } from "@/features/people/server/school-queries";
import { removeOidcProviderAction, setOidcProviderAction } from "@/features/people/server/school-actions";
import { ROLES } from "@/platform/auth/roles";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";

const ROLE_LABEL = { student: "oidcRoleStudent", teacher: "oidcRoleTeacher", manager: "oidcRoleManager" } as const;

/** The dialog's fields; the secret is write-only (never sent to the browser, empty keeps the stored one). */
function Fields({
  current,
  secret,
}: {
  current: AcademyOidcProviderView | null;
  secret: RefObject<HTMLInputElement | null>;
}) {
  const t = useTranslations("Schools");
  const text = (name: string, label: string, value: string | undefined, max: number) => (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={label} />
      </span>
      <input name={name} maxLength={max} defaultValue={value ?? ""} autoComplete="off" spellCheck={false} />
    </label>
  );
  return (
    <>
      {text("displayName", t("oidcDisplayName"), current?.displayName, 60)}
      {text("slug", t("oidcSlug"), current?.slug, 40)}
      {text("issuer", t("oidcIssuer"), current?.issuer, 300)}
      {text("clientId", t("oidcClientId"), current?.clientId, 300)}
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("oidcClientSecret")} />
        </span>
        <input ref={secret} name="clientSecret" type="password" maxLength={2000} autoComplete="new-password" />
      </label>
      <p className="muted">
        <RichTextClient text={t("oidcSecretHelp")} />
      </p>
      {text("identityClaim", t("oidcClaim"), current?.identityClaim ?? "email", 100)}
      <fieldset className="field">
        <legend className="field-label">
          <RichTextClient text={t("oidcRoles")} />
        </legend>
        {ROLES.map((role) => (
          <label key={role} className="row">
            <input
              type="checkbox"
              name={`role-${role}`}
              defaultChecked={current?.allowedRoles.includes(role) ?? false}
            />
            <RichTextClient text={t(ROLE_LABEL[role])} />
          </label>
        ))}
      </fieldset>
    </>
  );
}

/**
 * The academy's own OpenID Connect provider on the schools screen: what is set (never the secret), the sign-in link a
 * school prints and the redirect URI to register, set in a dialog, removed in another.
 */
export function OidcProvider({ current, origin }: { current: AcademyOidcProviderView | null; origin: string }) {
  const t = useTranslations("Schools");
  const secret = useRef<HTMLInputElement>(null);
  const save = (v: Record<string, string>) =>
    setOidcProviderAction({ ...v, allowedRoles: ROLES.filter((r) => v[`role-${r}`] === "on") });
  return (
    <section className="card stack" aria-labelledby="oidc-heading" data-testid="oidc-provider">
      <div className="row">
        <h2 id="oidc-heading">
          <RichTextClient text={t("oidcTitle")} />
        </h2>
        <span className="top-bar-spacer" />
        <FormDialog
          label={t("oidcEdit")}
          title={t("oidcDialogTitle")}
          testId="edit-oidc-provider"
          submit={t("save")}
          action={save}
          success={t("oidcSaved")}
          onOk={() => {
            if (secret.current) secret.current.value = ""; // write-only: not kept in the page once saved
          }}
          failure={(r) =>
            r.code === "VALIDATION" ? t("oidcInvalid") : r.code === "CONFLICT" ? t("oidcTaken") : t("failed")
          }
        >
          <Fields current={current} secret={secret} />
        </FormDialog>
        {current ? (
          <FormDialog
            label={t("oidcRemove")}
            title={t("oidcRemove")}
            testId="remove-oidc-provider"
            submit={t("oidcRemove")}
            action={() => removeOidcProviderAction({})}
            success={t("oidcRemoved")}
            failure={() => t("failed")}
          >
            <p>
              <RichTextClient text={t("oidcRemoveConfirm")} />
            </p>
          </FormDialog>
        ) : null}
      </div>
      {current ? (
        <div className="stack oidc-provider-urls" data-testid="oidc-provider-value" data-slug={current.slug}>
          <p>
            <RichTextClient text={t("oidcSet", { name: current.displayName, issuer: current.issuer })} />
          </p>
          <p data-testid="oidc-signin-link">
            <RichTextClient text={t("oidcLink", { url: `${origin}/signin?academy=${current.slug}` })} />
          </p>
          <p className="muted">
            <RichTextClient text={t("oidcRedirect", { url: `${origin}/api/auth/callback/oidc-${current.slug}` })} />
          </p>
        </div>
      ) : (
        <p data-testid="oidc-provider-value" data-slug="">
          <RichTextClient text={t("oidcUnset")} />
        </p>
      )}
    </section>
  );
}
