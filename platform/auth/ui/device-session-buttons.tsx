"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import type { ActionResult } from "@/platform/errors";
import { ActionButton } from "@/platform/ui/action-button";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { endDeviceSessionAction, endOtherDeviceSessionsAction } from "../device-actions";

/** A sign-out of other devices after a confirmation; the list is read again whatever the outcome. */
function EndButton({
  label,
  body,
  testId,
  action,
  success,
}: {
  label: string;
  body: string;
  testId: string;
  action: () => Promise<ActionResult<{ ended: number }>>;
  success: (ended: number) => string;
}) {
  const t = useTranslations("DeviceSessions");
  const router = useRouter();
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const onClick = async () => {
    if (!(await confirm({ title: label, body, confirm: t("end"), danger: true }))) return;
    run(action, { success: ({ ended }) => success(ended), failure: t("endFailed"), onDone: () => router.refresh() });
  };
  return (
    <>
      <ActionButton label={label} testId={testId} danger disabled={pending} onClick={onClick} />
      {dialog}
    </>
  );
}

/** Signs out one other device of the person, after a confirmation naming it. */
export function EndDeviceButton({ sessionId, device }: { sessionId: string; device: string }) {
  const t = useTranslations("DeviceSessions");
  return (
    <EndButton
      label={t("end")}
      body={t("endConfirm", { device })}
      testId="end-device"
      action={() => endDeviceSessionAction({ sessionId })}
      success={() => t("ended")}
    />
  );
}

/** Signs out every other device of the person, after a confirmation. */
export function EndOtherDevicesButton() {
  const t = useTranslations("DeviceSessions");
  return (
    <EndButton
      label={t("endOthers")}
      body={t("endOthersConfirm")}
      testId="end-other-devices"
      action={() => endOtherDeviceSessionsAction({})}
      success={(count) => t("endedOthers", { count })}
    />
  );
}
