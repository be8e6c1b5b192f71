"use client";
import { useTranslations } from "next-intl";
import QRCode from "qrcode";
import { type RefObject, useRef, useState } from "react";
import {
  deleteStudentsAction,
  issueCodesAction,
  readCodeAction,
  resetPasswordAction,
  revokeCodesAction,
  setDisabledAction,
} from "@/features/people/server/actions";
import { ActionButton } from "@/platform/ui/action-button";
import { PopoverMenu } from "@/platform/ui/popover-menu";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { qrFileName } from "@/features/people/shared/qr-file-name";
import { PasswordOnce } from "./copy-button";
import { EditStudent } from "./edit-student";
import type { StudentValues } from "./student-fields";

/**
 * Per-student actions: QR dialog (PNG download) and edit in view; in the
 * "more" menu reset password (shown once), stop/resume, new code, revoke and
 * delete, each destructive one after a confirmation.
 */
export function StudentRowActions({
  studentId,
  disabled,
  hasCode,
  name,
  classLine,
  values,
  responses,
}: {
  studentId: string;
  disabled: boolean;
  hasCode: boolean;
  name: string;
  classLine: string;
  values: StudentValues;
  responses: number;
}) {
  const t = useTranslations("Students");
  const { pending, run } = useActionRunner();
  const { qrDialog, qr, setQr, showQr } = useQrCode(studentId, run);
  const [password, setPassword] = useState<string | null>(null);
  const { confirm, dialog: confirmDialog } = useConfirm();

  return (
    <div className="row actions">
      <button
        type="button"
        className="button button-small"
        onClick={showQr}
        disabled={pending || !hasCode}
        data-testid="show-qr"
      >
        <RichTextClient text={t("qr")} />
      </button>
      <EditStudent studentId={studentId} values={values} />
      <PopoverMenu label={<RichTextClient text={t("more")} />} testId="row-menu">
        <RowMenu
          studentId={studentId}
          disabled={disabled}
          hasCode={hasCode}
          name={name}
          responses={responses}
          pending={pending}
          run={run}
          confirm={confirm}
          onPassword={setPassword}
        />
      </PopoverMenu>
      {password ? (
        <PasswordOnce message={t("newPassword", { password })} password={password} testId="new-password" />
      ) : null}
      {confirmDialog}
      <QrDialog
        dialog={qrDialog}
        studentId={studentId}
        name={name}
        classLine={classLine}
        values={values}
        qr={qr}
        onClose={() => setQr(null)}
      />
    </div>
  );
}

type Run = ReturnType<typeof useActionRunner>["run"];

/** The sign-in code's QR: read from the server, drawn on this page, shown in its dialog. */
function useQrCode(studentId: string, run: Run) {
  const t = useTranslations("Students");
  const notify = useNotify();
  const qrDialog = useRef<HTMLDialogElement>(null);
  const [qr, setQr] = useState<string | null>(null);
  const showQr = () =>
    run(() => readCodeAction({ studentId }), {
      failure: (code) => (code === "NOT_FOUND" ? t("noCode") : t("qrFailed")),
      // the URL comes from the server (the configured public address), as on the printed card
      onOk: ({ url }) => {
        QRCode.toDataURL(url, { width: 360, margin: 2, errorCorrectionLevel: "M" }).then(
          (png) => {
            setQr(png);
            qrDialog.current?.showModal();
          },
          () => notify({ message: t("qrFailed"), kind: "error" }),
        );
      },
    });
  return { qrDialog, qr, setQr, showQr };
}

/** The entries of the "more" menu: reset password, stop/resume, new code, revoke, delete. */
function RowMenu({
  studentId,
  disabled,
  hasCode,
  name,
  responses,
  pending,
  run,
  confirm,
  onPassword,
}: {
  studentId: string;
  disabled: boolean;
  hasCode: boolean;
  name: string;
  responses: number;
  pending: boolean;
  run: Run;
  confirm: ReturnType<typeof useConfirm>["confirm"];
  onPassword: (password: string) => void;
}) {
  const t = useTranslations("Students");
  const ids = { studentIds: [studentId] };
  /** An entry of the "more" menu (choosing it closes the menu). */
  const item = (label: string, testId: string, act: () => unknown, danger = false) => (
    <ActionButton label={label} testId={testId} disabled={pending} danger={danger} onClick={act} />
  );
  return (
    <>
      {item(t("resetPassword"), "reset-password", () =>
        run(() => resetPasswordAction({ studentId }), {
          failure: t("failed"),
          onOk: (data) => onPassword(data.password),
        }),
      )}
      {item(disabled ? t("enable") : t("disable"), "toggle-disabled", () =>
        run(() => setDisabledAction({ ...ids, disabled: !disabled }), {
          success: disabled ? t("enabledDone") : t("disabledDone"),
          failure: t("failed"),
        }),
      )}
      {item(t("newCode"), "new-code", async () => {
        if (await confirm({ title: t("newCode"), body: t("newCodeConfirm"), confirm: t("newCode"), danger: true })) {
          run(() => issueCodesAction(ids), { success: t("newCodeDone"), failure: t("failed") });
        }
      })}
      {hasCode
        ? item(t("revoke"), "revoke-code", async () => {
            if (await confirm({ title: t("revoke"), body: t("revokeConfirm"), confirm: t("revoke"), danger: true })) {
              run(() => revokeCodesAction(ids), { success: t("revokedDone"), failure: t("failed") });
            }
          })
        : null}
      {item(
        t("delete"),
        "delete-student",
        async () => {
          const body = responses > 0 ? t("deleteBodyResponses", { name, count: responses }) : t("deleteBody", { name });
          if (await confirm({ title: t("deleteTitle"), body, confirm: t("delete"), danger: true })) {
            run(() => deleteStudentsAction(ids), { success: t("deletedDone", { count: 1 }), failure: t("failed") });
          }
        },
        true,
      )}
    </>
  );
}

/** The QR dialog: the student, the code's image and its PNG download. */
function QrDialog({
  dialog,
  studentId,
  name,
  classLine,
  values,
  qr,
  onClose,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  studentId: string;
  name: string;
  classLine: string;
  values: StudentValues;
  qr: string | null;
  onClose: () => void;
}) {
  const t = useTranslations("Students");
  const plain = usePlainText();
  const classLabel =
    values.grade !== null ? plain(t("classLabel", { grade: values.grade, className: values.className ?? "" })) : null;
  const fileName = qrFileName({ classLabel, number: values.number, name });
  return (
    <dialog
      ref={dialog}
      className="dialog qr-dialog"
      aria-labelledby={`qr-${studentId}`}
      data-testid="qr-dialog"
      onClose={onClose}
    >
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
          <a className="button button-primary" href={qr} download={fileName} data-testid="qr-download">
            <RichTextClient text={t("download")} />
          </a>
        ) : null}
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          <RichTextClient text={t("close")} />
        </button>
      </div>
    </dialog>
  );
}
