"use client";
import { useTranslations } from "next-intl";
import { updateStudentAction } from "@/features/people/server/actions";
import { FormDialog } from "@/platform/ui/form-dialog";
import { StudentFields, type StudentValues, useStudentFormError } from "./student-fields";

/** "Edit": the student's details in a dialog form; closes and reports when saved. */
export function EditStudent({ studentId, values }: { studentId: string; values: StudentValues }) {
  const t = useTranslations("Students");
  const failure = useStudentFormError();
  return (
    <FormDialog
      label={t("edit")}
      title={t("editTitle")}
      testId="edit-student"
      submit={t("save")}
      action={(fields) => updateStudentAction({ ...fields, studentId })}
      success={t("saved")}
      failure={failure}
    >
      <StudentFields values={values} />
    </FormDialog>
  );
}
