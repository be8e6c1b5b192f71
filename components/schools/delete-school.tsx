"use client";
import { useTranslations } from "next-intl";
import { deleteSchoolAction } from "@/lib/schools/actions";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { useActionRunner } from "@/components/ui/use-action-runner";

/** "Delete school" after a confirmation; a school that still holds people or activities is refused with what to do first. */
export function DeleteSchool({ schoolId, schoolName }: { schoolId: string; schoolName: string }) {
  const t = useTranslations("ManageSchools");
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  return (
    <>
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="delete-school"
        onClick={async () => {
          if (!(await confirm({ title: t("delete"), body: t("deleteConfirm", { school: schoolName }), confirm: t("deleteButton"), danger: true }))) return;
          run(() => deleteSchoolAction({ schoolId }), {
            success: t("deletedDone"),
            failure: (code) => (code === "CONFLICT" ? t("notEmpty") : t("deleteFailed")),
          });
        }}
      >
        <RichTextClient text={t("delete")} />
      </button>
      {dialog}
    </>
  );
}
