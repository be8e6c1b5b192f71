"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { addStudentAction } from "@/features/people/server/actions";
import { FormDialog } from "@/platform/ui/form-dialog";
import { PasswordOnce } from "./copy-button";
import { StudentFields, useStudentFormError } from "./student-fields";

/** "Add student": a dialog form; the initial password is shown once. */
export function AddStudent() {
  const t = useTranslations("Students");
  const failure = useStudentFormError();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <FormDialog
      label={t("add")}
      title={t("addTitle")}
      testId="add-student"
      submit={t("save")}
      primary
      keepOpen
      action={(fields) => addStudentAction(fields)}
      success={t("added")}
      failure={failure}
      onOk={(data) => setPassword(data.password)}
      after={
        password ? (
          <PasswordOnce message={t("passwordOnce", { password })} password={password} testId="initial-password" />
        ) : null
      }
    >
      <StudentFields />
    </FormDialog>
  );
}
