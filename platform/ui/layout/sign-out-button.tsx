"use client";
import { useTranslations } from "next-intl";
import { useFormStatus } from "react-dom";
import { signOutAction } from "@/platform/auth/actions";
import { LANGUAGE_STORAGE_KEY, languageCookieString } from "@/platform/i18n/languages";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { inFrame } from "./language-switcher";

function Submit({ className }: { className: string }) {
  const t = useTranslations("Auth");
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={className} disabled={pending} aria-busy={pending} data-testid="sign-out">
      {pending ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
      <RichTextClient text={pending ? t("signingOut") : t("signout")} />
    </button>
  );
}

function forgetLanguage() {
  // the server's deletion names no partition: inside the portal's iframe the framed cookie is cleared here
  if (inFrame()) document.cookie = languageCookieString("", 0, true);
  try {
    localStorage.removeItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // storage unavailable: nothing kept
  }
}

/** Sign-out with a loading state; a failed sign-out is logged and still lands on /signin. */
export function SignOutButton({ className = "button button-ghost" }: { className?: string }) {
  return (
    // the display language kept on this device was the person's (the server clears its cookie too)
    <form action={signOutAction} onSubmit={forgetLanguage}>
      <Submit className={className} />
    </form>
  );
}
