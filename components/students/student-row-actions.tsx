"use client";
import { useTranslations } from "next-intl";
import QRCode from "qrcode";
import { useRef, useState, useTransition } from "react";
import { issueCodesAction, readCodeAction, resetPasswordAction, revokeCodesAction, setDisabledAction } from "@/lib/students/actions";
import type { ActionResult } from "@/lib/errors";
import { useNotify } from "@/components/ui/notifications";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { usePlainText } from "@/components/ui/use-plain-text";
import { CopyButton } from "./copy-button";

const failed = (): ActionResult<never> => ({ ok: false, code: "INTERNAL" });

/** Per-student actions: QR dialog (PNG download), reset password (shown once), stop/resume, new code. */
export function StudentRowActions({ studentId, disabled, hasCode, name, classLine }: {
  studentId: string; disabled: boolean; hasCode: boolean; name: string; classLine: string;
}) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const notify = useNotify();
  const [pending, startTransition] = useTransition();
  const qrDialog = useRef<HTMLDialogElement>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);

  const showQr = () =>
    startTransition(async () => {
      const result = await readCodeAction({ studentId }).catch(failed);
      if (!result.ok) {
        notify({ message: result.code === "NOT_FOUND" ? t("noCode") : t("qrFailed"), kind: "error" });
        return;
      }
      try {
        const url = `${window.location.origin}/auth/auth-with-code?code=${result.data.code}`;
        setQr(await QRCode.toDataURL(url, { width: 360, margin: 2, errorCorrectionLevel: "M" }));
        qrDialog.current?.showModal();
      } catch {
        notify({ message: t("qrFailed"), kind: "error" });
      }
    });

  return (
    <div className="row actions">
      <button type="button" className="button button-small" onClick={showQr} disabled={pending || !hasCode} data-testid="show-qr">
        <RichTextClient text={t("qr")} />
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="reset-password"
        onClick={() =>
          startTransition(async () => {
            const result = await resetPasswordAction({ studentId }).catch(failed);
            if (result.ok) setPassword(result.data.password);
            else notify({ message: t("failed"), kind: "error" });
          })
        }
      >
        <RichTextClient text={t("resetPassword")} />
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="toggle-disabled"
        onClick={() =>
          startTransition(async () => {
            const result = await setDisabledAction({ studentIds: [studentId], disabled: !disabled }).catch(failed);
            notify(result.ok ? { message: disabled ? t("enabledDone") : t("disabledDone"), kind: "success" } : { message: t("failed"), kind: "error" });
          })
        }
      >
        <RichTextClient text={disabled ? t("enable") : t("disable")} />
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="new-code"
        onClick={() => {
          if (!window.confirm(plain(t("newCodeConfirm")))) return;
          startTransition(async () => {
            const result = await issueCodesAction({ studentIds: [studentId] }).catch(failed);
            notify(result.ok ? { message: t("newCodeDone"), kind: "success" } : { message: t("failed"), kind: "error" });
          });
        }}
      >
        <RichTextClient text={t("newCode")} />
      </button>
      {hasCode ? (
        <button
          type="button"
          className="button button-small"
          disabled={pending}
          data-testid="revoke-code"
          onClick={() => {
            if (!window.confirm(plain(t("revokeConfirm")))) return;
            startTransition(async () => {
              const result = await revokeCodesAction({ studentIds: [studentId] }).catch(failed);
              notify(result.ok ? { message: t("revokedDone"), kind: "success" } : { message: t("failed"), kind: "error" });
            });
          }}
        >
          <RichTextClient text={t("revoke")} />
        </button>
      ) : null}
      {password ? (
        <div className="alert alert-success" role="status" data-testid="new-password" data-password={password}>
          <span>
            <RichTextClient text={t("newPassword", { password })} />
          </span>
          <CopyButton text={password} />
        </div>
      ) : null}
      <dialog ref={qrDialog} className="dialog qr-dialog" aria-labelledby={`qr-${studentId}`} data-testid="qr-dialog" onClose={() => setQr(null)}>
        <h2 id={`qr-${studentId}`}>
          <RichTextClient text={t("qrTitle")} />
        </h2>
        <p className="confirm-name">{name}</p>
        <p className="muted">{classLine}</p>
        {qr ? (
          // eslint-disable-next-line @next/next/no-img-element -- a data: URL made on this page
          <img src={qr} width={360} height={360} alt={`${plain(t("qrTitle"))} ${name}`} data-testid="qr-image" />
        ) : null}
        <div className="row">
          {qr ? (
            <a className="button button-primary" href={qr} download={`signin-${classLine.replace(/\s+/g, "")}-${name.replace(/\s+/g, "")}.png`} data-testid="qr-download">
              <RichTextClient text={t("download")} />
            </a>
          ) : null}
          <button type="button" className="button" onClick={() => qrDialog.current?.close()}>
            <RichTextClient text={t("close")} />
          </button>
        </div>
      </dialog>
    </div>
  );
}
