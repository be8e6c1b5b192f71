"use client";
import { useTranslations } from "next-intl";
import { useFormStatus } from "react-dom";
import { signInWithProvider } from "@/platform/auth/actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { isProviderId, PROVIDER_LOOK } from "./provider-look";

/** An academy's own provider (`name`: its display name) or Google's or Microsoft's look. */
function Submit({ provider, name }: { provider: string; name?: string }) {
  const t = useTranslations("Auth");
  const { pending } = useFormStatus();
  const builtIn = isProviderId(provider) ? PROVIDER_LOOK[provider] : null;
  const look = builtIn ?? { mark: Array.from(name ?? "?")[0]!, testId: "academy-signin" };
  const label = builtIn ? t(builtIn.label) : t("academyProvider", { name: name ?? "" });
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
      <RichTextClient text={pending ? t("signingIn") : label} />
    </button>
  );
}

/**
 * Sign-in with an OpenID Connect provider (Google, Microsoft, the academy's own one named `name`) with its loading
 * state (docs/requirements.md §4).
 */
export function ProviderButton({ provider, from, name }: { provider: string; from: string | null; name?: string }) {
  return (
    <form action={signInWithProvider}>
      <input type="hidden" name="provider" value={provider} />
      {from ? <input type="hidden" name="from" value={from} /> : null}
      <Submit provider={provider} name={name} />
    </form>
  );
}
