"use client";
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/platform/errors";
import { ActionButton } from "@/platform/ui/action-button";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import {
  finishPasskeyRegistrationAction,
  removePasskeyAction,
  startPasskeyRegistrationAction,
  startPasskeySigninAction,
  verifyPasskeySigninAction,
} from "../passkey-actions";
import { PASSKEY_NAME_MAX } from "../passkey-limits";
import { ErrorLine } from "./totp-enrol";

/** What the page says about a refused ceremony: the server's reason, or the browser's (cancelled, unsupported). */
type PasskeyError =
  | "passkeyRefused"
  | "passkeyExpired"
  | "passkeyDuplicate"
  | "passkeyCancelled"
  | "passkeyUnsupported"
  | "tooManyRequests"
  | "failed";

function serverError(result: ActionResult<unknown>): PasskeyError {
  if (result.ok) return "failed";
  const reason = result.fieldErrors?.passkey?.[0];
  if (reason === "passkeyRefused" || reason === "passkeyExpired" || reason === "passkeyDuplicate") return reason;
  return result.code === "RATE_LIMITED" ? "tooManyRequests" : "failed";
}

/** The browser's refusal: the person cancelled or waited too long (NotAllowedError), or WebAuthn is missing. */
function browserError(error: unknown): PasskeyError {
  if (error instanceof WebAuthnError && error.code === "ERROR_INVALID_DOMAIN") return "passkeyUnsupported";
  if (!browserSupportsWebAuthn()) return "passkeyUnsupported";
  return "passkeyCancelled";
}

const INTERNAL = (): ActionResult<never> => ({ ok: false, code: "INTERNAL" });

/** Adds a passkey under a name: the server's options, the browser's authenticator, the server's check. */
export function AddPasskey() {
  const t = useTranslations("SecondFactor");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<PasskeyError | null>(null);
  const [added, setAdded] = useState(false);
  const add = (name: string) =>
    startTransition(async () => {
      setAdded(false);
      const options = await startPasskeyRegistrationAction({}).catch(INTERNAL);
      if (!options.ok) return setError("failed");
      const credential = await startRegistration({ optionsJSON: options.data }).catch((e: unknown) => e);
      if (!credential || credential instanceof Error || !("response" in (credential as object)))
        return setError(browserError(credential));
      const result = await finishPasskeyRegistrationAction({ name, credential }).catch(INTERNAL);
      if (!result.ok) return setError(serverError(result));
      setError(null);
      setAdded(true);
      router.refresh();
    });
  return (
    <form
      className="stack passkey-add"
      data-testid="passkey-add-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        add(String(new FormData(form).get("name") ?? "").trim());
        form.reset();
      }}
    >
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("passkeyName")} />
        </span>
        <input name="name" required maxLength={PASSKEY_NAME_MAX} autoComplete="off" data-testid="passkey-name" />
        <span className="muted small">
          <RichTextClient text={t("passkeyNameHint")} />
        </span>
      </label>
      {error ? <ErrorLine code={error} text={t(error, { minutes: 15 })} /> : null}
      {added ? (
        <p className="alert alert-success" role="status" data-testid="passkey-added">
          <RichTextClient text={t("passkeyAdded")} />
        </p>
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending} data-testid="passkey-add">
        <RichTextClient text={t("passkeyAdd")} />
      </button>
    </form>
  );
}

/** Removes one passkey after a confirmation. */
export function RemovePasskeyButton({ id }: { id: string }) {
  const t = useTranslations("SecondFactor");
  const router = useRouter();
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const onClick = async () => {
    const ok = await confirm({
      title: t("passkeyRemoveTitle"),
      body: t("passkeyRemoveConfirm"),
      confirm: t("passkeyRemove"),
      danger: true,
    });
    if (!ok) return;
    run(() => removePasskeyAction({ id }), {
      success: t("passkeyRemoved"),
      failure: (code) => t(code === "FORBIDDEN" ? "removeRequired" : "failed"),
      onDone: () => router.refresh(),
    });
  };
  return (
    <>
      <ActionButton label={t("passkeyRemove")} testId="passkey-remove" danger disabled={pending} onClick={onClick} />
      {dialog}
    </>
  );
}

/** /auth/second-factor: confirms the waiting sign-in with one of the person's passkeys. */
export function PasskeySignin({ from }: { from: string | null }) {
  const t = useTranslations("SecondFactor");
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<PasskeyError | null>(null);
  const signIn = () =>
    startTransition(async () => {
      const options = await startPasskeySigninAction().catch(INTERNAL);
      if (!options.ok) return setError(serverError(options));
      const credential = await startAuthentication({ optionsJSON: options.data }).catch((e: unknown) => e);
      if (!credential || credential instanceof Error || !("response" in (credential as object)))
        return setError(browserError(credential));
      const result = await verifyPasskeySigninAction(credential, from).catch(INTERNAL);
      if (!result.ok) return setError(serverError(result));
      router.replace(result.data.href);
    });
  return (
    <div className="stack passkey-signin">
      <p className="muted">
        <RichTextClient text={t("passkeySigninLead")} />
      </p>
      {error ? <ErrorLine code={error} text={t(error, { minutes: 15 })} /> : null}
      <button
        type="button"
        className="button button-primary"
        disabled={pending}
        aria-busy={pending}
        onClick={signIn}
        data-testid="passkey-signin"
      >
        <RichTextClient text={t("passkeySignin")} />
      </button>
    </div>
  );
}
