"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { resetPassword, type ResetState } from "@/platform/auth/reset-actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";

export function ResetForm({ token }: { token: string }) {
  const t = useTranslations("Reset");
  const te = useTranslations("AuthErrors");
  const [state, action, pending] = useActionState<ResetState, FormData>(resetPassword, { error: null });
  const message = state.error === "expiredActionCode" ? te("expiredActionCode") : state.error ? t(state.error) : null;
  return (
    <form action={action} className="stack" noValidate>
      <input type="hidden" name="token" value={token} />
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("newPassword")} />
        </span>
        <input name="password" type="password" autoComplete="new-password" minLength={8} required />
      </label>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("confirmPassword")} />
        </span>
        <input name="confirm" type="password" autoComplete="new-password" minLength={8} required />
      </label>
      {message ? (
        <p className="alert alert-error" role="alert" data-testid="reset-error" data-code={state.error}>
          <span>
            <RichTextClient text={message} />
          </span>
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
        <RichTextClient text={pending ? t("saving") : t("save")} />
      </button>
    </form>
  );
}
