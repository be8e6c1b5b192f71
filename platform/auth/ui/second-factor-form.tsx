"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { type SecondFactorState, verifySecondFactorAction } from "@/platform/auth/second-factor-actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { CodeField, ErrorLine } from "./totp-enrol";

/** The code of the person's app (or a recovery code) after their password or provider. */
export function SecondFactorForm({ from }: { from: string | null }) {
  const t = useTranslations("SecondFactor");
  const [state, action, pending] = useActionState<SecondFactorState, FormData>(verifySecondFactorAction, {
    error: null,
  });
  return (
    <form action={action} className="stack" data-testid="second-factor-form">
      {from ? <input type="hidden" name="from" value={from} /> : null}
      <CodeField testId="second-factor-code" maxLength={32} invalid={Boolean(state.error)} />
      <p className="muted small">
        <RichTextClient text={t("codeHint")} />
      </p>
      {state.error ? (
        <ErrorLine code={state.error} text={t(state.error, { minutes: state.retryMinutes ?? 15 })} />
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
        <RichTextClient text={t("verify")} />
      </button>
    </form>
  );
}
