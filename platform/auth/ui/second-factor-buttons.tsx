"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ActionButton } from "@/platform/ui/action-button";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { removeSecondFactorsAction, renewRecoveryCodesAction } from "../second-factor-actions";
import { RecoveryCodes } from "./totp-enrol";

/** Ten new recovery codes after a confirmation (the old ones stop working), shown once. */
export function RenewRecoveryCodesButton() {
  const t = useTranslations("SecondFactor");
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodes codes={codes} />;
  const onClick = async () => {
    if (!(await confirm({ title: t("renew"), body: t("renewConfirm"), confirm: t("renew") }))) return;
    run(() => renewRecoveryCodesAction({}), { failure: t("failed"), onOk: (data) => setCodes(data.recoveryCodes) });
  };
  return (
    <>
      <ActionButton label={t("renew")} testId="recovery-renew" disabled={pending} onClick={onClick} />
      {dialog}
    </>
  );
}

/** Removes the person's app and recovery codes after a confirmation. */
export function RemoveSecondFactorButton() {
  const t = useTranslations("SecondFactor");
  const router = useRouter();
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const onClick = async () => {
    if (!(await confirm({ title: t("remove"), body: t("removeConfirm"), confirm: t("remove"), danger: true }))) return;
    run(() => removeSecondFactorsAction({}), {
      success: t("removed"),
      failure: (code) => t(code === "FORBIDDEN" ? "removeRequired" : "failed"),
      onDone: () => router.refresh(),
    });
  };
  return (
    <>
      <ActionButton label={t("remove")} testId="totp-remove" danger disabled={pending} onClick={onClick} />
      {dialog}
    </>
  );
}
