"use client";
import { useTranslations } from "next-intl";
import QRCode from "qrcode";
import { useRef, useState } from "react";
import { issueCodesAction, readCodeAction, resetPasswordAction, revokeCodesAction, setDisabledAction } from "@/lib/students/actions";
import { useNotify } from "@/components/ui/notifications";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { usePlainText } from "@/components/ui/use-plain-text";
import { CopyButton } from "./copy-button";

/** Per-student actions: QR dialog (PNG download), reset password (shown once), stop/resume, new code, revoke. */
export function StudentRowActions({ studentId, disabled, hasCode, name, classLine }: {
  studentId: string; disabled: boolean; hasCode: boolean; name: string; classLine: string;
}) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const notify = useNotify();
  const { pending, run } = useActionRunner();
  const qrDialog = useRef<HTMLDialogElement>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const ids = { studentIds: [studentId] };
  const confirmed = (key: "newCodeConfirm" | "revokeConfirm") => window.confirm(plain(t(key)));

  const showQr = () =>
    run(() => readCodeAction({ studentId }), {
      failure: (code) => (code === "NOT_FOUND" ? t("noCode") : t("qrFailed")),
      onOk: ({ code }) => {
        const url = `${window.location.origin}/auth/auth-with-code?code=${code}`;
        QRCode.toDataURL(url, { width: 360, margin: 2, errorCorrectionLevel: "M" }).then(
          (png) => {
            setQr(png);
            qrDialog.current?.showModal();
          },
          () => notify({ message: t("qrFailed"), kind: "error" }),
        );
      },
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
        onClick={() => run(() => resetPasswordAction({ studentId }), { failure: t("failed"), onOk: (data) => setPassword(data.password) })}
      >
        <RichTextClient text={t("resetPassword")} />
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="toggle-disabled"
        onClick={() =>
          run(() => setDisabledAction({ ...ids, disabled: !disabled }), {
            success: disabled ? t("enabledDone") : t("disabledDone"),
            failure: t("failed"),
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
          if (confirmed("newCodeConfirm")) run(() => issueCodesAction(ids), { success: t("newCodeDone"), failure: t("failed") });
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
            if (confirmed("revokeConfirm")) run(() => revokeCodesAction(ids), { success: t("revokedDone"), failure: t("failed") });
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
