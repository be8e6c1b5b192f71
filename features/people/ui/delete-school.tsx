"use client";
import { useTranslations } from "next-intl";
import { deleteSchoolAction } from "@/features/people/server/school-actions";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { ActionButton } from "@/platform/ui/action-button";
import { useActionRunner } from "@/platform/ui/use-action-runner";

/** "Delete school" after a confirmation; a school that still holds people or activities is refused with what to do first. */
export function DeleteSchool({ schoolId, schoolName }: { schoolId: string; schoolName: string }) {
  const t = useTranslations("ManageSchools");
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  return (
    <>
      <ActionButton
        label={t("delete")}
        testId="delete-school"
        disabled={pending}
        onClick={async () => {
          if (
            !(await confirm({
              title: t("delete"),
              body: t("deleteConfirm", { school: schoolName }),
              confirm: t("deleteButton"),
              danger: true,
            }))
          )
            return;
          run(() => deleteSchoolAction({ schoolId }), {
            success: t("deletedDone"),
            failure: (code) => (code === "CONFLICT" ? t("notEmpty") : t("deleteFailed")),
          });
        }}
      />
      {dialog}
    </>
  );
}
