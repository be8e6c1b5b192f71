"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/platform/errors";
import type { TotpEnrolment } from "@/platform/auth/second-factor";
import { RichTextClient } from "@/platform/ui/rich-text-client";

type Codes = ActionResult<{ recoveryCodes: string[] }>;

/**
 * Sets up an authenticator app: a QR code to scan (and its key to type), then the app's first code; the ten
 * recovery codes are shown once. `doneHref`: where "continue" goes (a sign-in waiting to enrol); else the page is
 * read again.
 */
export function TotpEnrol({
  start,
  confirm,
  doneHref,
}: {
  start: (input: object) => Promise<ActionResult<TotpEnrolment>>;
  confirm: (input: { code: string }) => Promise<Codes>;
  doneHref?: string;
}) {
  const t = useTranslations("SecondFactor");
  const [pending, startTransition] = useTransition();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const begin = () =>
    startTransition(async () => {
      const result = await start({}).catch((): ActionResult<TotpEnrolment> => ({ ok: false, code: "INTERNAL" }));
      setError(result.ok ? null : "failed");
      if (result.ok) setEnrolment(result.data);
    });
  const submit = (code: string) =>
    startTransition(async () => {
      const result = await confirm({ code }).catch((): Codes => ({ ok: false, code: "INTERNAL" }));
      if (result.ok) setCodes(result.data.recoveryCodes);
      else setError(result.code === "RATE_LIMITED" ? "tooManyRequests" : "wrongCode");
    });
  if (codes) return <RecoveryCodes codes={codes} doneHref={doneHref} />;
  if (!enrolment)
    return (
      <div className="stack">
        <button
          type="button"
          className="button button-primary"
          disabled={pending}
          onClick={begin}
          data-testid="totp-start"
        >
          <RichTextClient text={t("start")} />
        </button>
        {error ? <ErrorLine code="failed" text={t("failed")} /> : null}
      </div>
    );
  return <TotpScan enrolment={enrolment} pending={pending} error={error} submit={submit} />;
}

/** The QR code and key of a new app secret, and the field for the app's first code. */
function TotpScan({
  enrolment,
  pending,
  error,
  submit,
}: {
  enrolment: TotpEnrolment;
  pending: boolean;
  error: string | null;
  submit: (code: string) => void;
}) {
  const t = useTranslations("SecondFactor");
  return (
    <form
      className="stack totp-enrol"
      onSubmit={(e) => {
        e.preventDefault();
        submit(String(new FormData(e.currentTarget).get("code") ?? ""));
      }}
    >
      <p>
        <RichTextClient text={t("scan")} />
      </p>
      {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made on the server */}
      <img
        src={enrolment.qr}
        alt={t("qrAlt")}
        width={200}
        height={200}
        data-testid="totp-qr"
        data-uri={enrolment.uri}
      />
      <p className="muted small">
        <RichTextClient text={t("secretLabel")} />
      </p>
      <p className="mono" data-testid="totp-secret">
        {enrolment.secret.replace(/(.{4})/g, "$1 ").trim()}
      </p>
      <CodeField testId="totp-code" maxLength={6} />
      {error ? (
        <ErrorLine
          code={error}
          text={t(error === "tooManyRequests" ? "tooManyRequests" : "wrongCode", { minutes: 15 })}
        />
      ) : null}
      <button type="submit" className="button button-primary" disabled={pending} data-testid="totp-confirm">
        <RichTextClient text={t("confirm")} />
      </button>
    </form>
  );
}

/** The field for a code (of the app, or a recovery code where `maxLength` allows one). */
export function CodeField({ testId, maxLength, invalid }: { testId: string; maxLength: number; invalid?: boolean }) {
  const t = useTranslations("SecondFactor");
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={t("code")} />
      </span>
      <input
        name="code"
        autoComplete="one-time-code"
        inputMode={maxLength === 6 ? "numeric" : "text"}
        autoFocus
        required
        maxLength={maxLength}
        data-testid={testId}
        aria-invalid={invalid || undefined}
      />
    </label>
  );
}

/** A refused code or step, in words. */
export function ErrorLine({ text, code }: { text: string; code?: string }) {
  return (
    <div className="alert alert-error" role="alert" data-testid="second-factor-error" data-code={code}>
      <span>
        <RichTextClient text={text} />
      </span>
    </div>
  );
}

/** The recovery codes, shown once: to print or write down. */
export function RecoveryCodes({ codes, doneHref }: { codes: string[]; doneHref?: string }) {
  const t = useTranslations("SecondFactor");
  const router = useRouter();
  return (
    <div className="stack" data-testid="recovery-codes">
      <h2>
        <RichTextClient text={t("recoveryTitle")} />
      </h2>
      <p className="alert alert-warning">
        <RichTextClient text={t("recoveryLead")} />
      </p>
      <ol className="mono recovery-codes">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      {doneHref ? (
        <a className="button button-primary" href={doneHref} data-testid="recovery-done">
          <RichTextClient text={t("continue")} />
        </a>
      ) : (
        <button
          type="button"
          className="button button-primary"
          onClick={() => router.refresh()}
          data-testid="recovery-done"
        >
          <RichTextClient text={t("done")} />
        </button>
      )}
    </div>
  );
}
