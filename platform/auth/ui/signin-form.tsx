"use client";
import { useTranslations } from "next-intl";
import { useActionState, useState } from "react";
import { signInWithPassword, type SigninState } from "@/platform/auth/actions";
import type { SigninErrorCode } from "@/platform/auth/errors";
import { RichTextClient } from "@/platform/ui/rich-text-client";

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function SigninForm({ from, initialError }: { from: string | null; initialError: SigninErrorCode | null }) {
  const t = useTranslations("Auth");
  const te = useTranslations("AuthErrors");
  const [state, action, pending] = useActionState<SigninState, FormData>(signInWithPassword, {
    error: initialError,
    email: "",
  });
  // An error stays until dismissed or the field is edited (issue: auth errors are kept in state).
  const [dismissedFor, setDismissedFor] = useState<SigninState | null>(null);
  const [clientError, setClientError] = useState<SigninErrorCode | null>(null);
  const error = clientError ?? (dismissedFor === state ? null : state.error);

  return (
    <form
      action={action}
      className="stack"
      noValidate
      onSubmit={(e) => {
        const email = new FormData(e.currentTarget).get("email");
        if (typeof email !== "string" || !EMAIL_SHAPE.test(email.trim())) {
          e.preventDefault();
          setClientError("invalidEmail");
        }
      }}
      onChange={() => {
        setClientError(null);
        setDismissedFor(state);
      }}
    >
      {from ? <input type="hidden" name="from" value={from} /> : null}
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("email")} />
        </span>
        <input
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          defaultValue={state.email}
          aria-invalid={error === "invalidEmail" || undefined}
        />
      </label>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("password")} />
        </span>
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error ? (
        <div className="alert alert-error" role="alert" data-testid="signin-error" data-code={error}>
          <span>
            <RichTextClient text={te(error, { minutes: state.retryMinutes ?? 15 })} />
          </span>
          <button
            type="button"
            className="icon-button"
            aria-label={te("dismiss")}
            onClick={() => {
              setClientError(null);
              setDismissedFor(state);
            }}
          >
            ×
          </button>
        </div>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending} aria-busy={pending}>
        {pending ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
        <RichTextClient text={pending ? t("signingIn") : t("signin")} />
      </button>
    </form>
  );
}
