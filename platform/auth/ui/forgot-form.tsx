"use client";
import { useTranslations } from "next-intl";
import { useActionState } from "react";
import { type ForgotState, requestReset } from "@/platform/auth/reset-actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";

export function ForgotForm() {
  const t = useTranslations("Reset");
  const te = useTranslations("AuthErrors");
  const [state, action, pending] = useActionState<ForgotState, FormData>(requestReset, { status: "idle" });
  if (state.status === "sent") {
    return (
      <p className="alert alert-success" role="status" data-testid="forgot-sent">
        <span>
          <RichTextClient text={t("sent")} />
        </span>
      </p>
    );
  }
  return (
    <form action={action} className="stack" noValidate>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("email")} />
        </span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          required
          aria-invalid={state.status === "invalidEmail" || undefined}
        />
      </label>
      {state.status === "invalidEmail" ? (
        <p className="alert alert-error" role="alert" data-testid="forgot-error">
          <span>
            <RichTextClient text={te("invalidEmail")} />
          </span>
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
        <RichTextClient text={pending ? t("sending") : t("send")} />
      </button>
    </form>
  );
}
