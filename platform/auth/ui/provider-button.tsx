"use client";
import { useTranslations } from "next-intl";
import { useFormStatus } from "react-dom";
import { signInWithProvider } from "@/platform/auth/actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { PROVIDER_LOOK, type ProviderId } from "./provider-look";

function Submit({ provider }: { provider: ProviderId }) {
  const t = useTranslations("Auth");
  const { pending } = useFormStatus();
  const look = PROVIDER_LOOK[provider];
  return (
    <button
      type="submit"
      className="button provider-button"
      disabled={pending}
      aria-busy={pending}
      data-testid={look.testId}
    >
      {pending ? (
        <span className="spinner spinner-small" aria-hidden="true" />
      ) : (
        <span className="provider-mark" aria-hidden="true">
          {look.mark}
        </span>
      )}
      <RichTextClient text={pending ? t("signingIn") : t(look.label)} />
    </button>
  );
}

/** Sign-in with an OpenID Connect provider (Google, Microsoft) with its loading state (docs/requirements.md §4). */
export function ProviderButton({ provider, from }: { provider: ProviderId; from: string | null }) {
  return (
    <form action={signInWithProvider}>
      <input type="hidden" name="provider" value={provider} />
      {from ? <input type="hidden" name="from" value={from} /> : null}
      <Submit provider={provider} />
    </form>
  );
}
