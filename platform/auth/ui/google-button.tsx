"use client";
import { useTranslations } from "next-intl";
import { useFormStatus } from "react-dom";
import { signInWithGoogle } from "@/platform/auth/actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";

function Submit() {
  const t = useTranslations("Auth");
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      className="button google-button"
      disabled={pending}
      aria-busy={pending}
      data-testid="google-signin"
    >
      {pending ? (
        <span className="spinner spinner-small" aria-hidden="true" />
      ) : (
        <span className="google-mark" aria-hidden="true">
          G
        </span>
      )}
      <RichTextClient text={pending ? t("signingIn") : t("google")} />
    </button>
  );
}

/** Google sign-in with its loading state (docs/requirements.md §4). */
export function GoogleButton({ from }: { from: string | null }) {
  return (
    <form action={signInWithGoogle}>
      {from ? <input type="hidden" name="from" value={from} /> : null}
      <Submit />
    </form>
  );
}
