"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import {
  addTeacherAction,
  createSchoolAction,
  moveTeacherAction,
  renameSchoolAction,
  setTeacherDisabledAction,
} from "@/features/people/server/school-actions";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { FormDialog } from "@/platform/ui/form-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { refusesFormula } from "@/platform/names/person-name";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { PasswordOnce } from "@/features/people/ui/copy-button";

type T = ReturnType<typeof useTranslations<"Schools">>;
const failure = (t: T) => (code: string) =>
  code === "CONFLICT" ? t("emailInUse") : code === "VALIDATION" ? t("invalid") : t("failed");

/** The form's failure: the field that is wrong and why. */
function useFormFailure() {
  const t = useTranslations("Schools");
  const rows = useTranslations("Import");
  return (result: { code: string; fieldErrors?: Record<string, string[]> }) => {
    const fields = result.fieldErrors ?? {};
    if (result.code !== "VALIDATION") return failure(t)(result.code);
    if (refusesFormula(fields)) return rows("row_formulaName");
    if (fields.nameKana) return rows("row_badKana");
    if (fields.email) return rows("row_badEmail");
    return t("invalid");
  };
}

function Field({
  name,
  label,
  type = "text",
  required = true,
  defaultValue,
}: {
  name: string;
  label: string;
  type?: string;
  required?: boolean;
  defaultValue?: string;
}) {
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={label} />
      </span>
      <input
        name={name}
        type={type}
        required={required}
        maxLength={type === "email" ? 254 : 100}
        defaultValue={defaultValue}
      />
    </label>
  );
}

/** "Add school" (no `school`) or "rename" (with one). */
export function SchoolForm({ school }: { school?: { id: string; name: string; nameKana: string } }) {
  const t = useTranslations("Schools");
  const formFailure = useFormFailure();
  return (
    <FormDialog
      label={school ? t("rename") : t("create")}
      primary={!school}
      failure={formFailure}
      title={school ? t("renameTitle") : t("createTitle")}
      testId={school ? "rename-school" : "create-school"}
      submit={t("save")}
      action={(v) => (school ? renameSchoolAction({ ...v, schoolId: school.id }) : createSchoolAction(v))}
      success={school ? t("renamedDone") : t("createdDone")}
    >
      <Field name="name" label={t("schoolName")} defaultValue={school?.name} />
      <Field name="nameKana" label={t("schoolKana")} required={false} defaultValue={school?.nameKana} />
    </FormDialog>
  );
}

/** "Add teacher" to one school: the initial password is shown once, with a copy button. */
export function AddTeacher({ schoolId, schoolName }: { schoolId: string; schoolName: string }) {
  const t = useTranslations("Schools");
  const formFailure = useFormFailure();
  const [password, setPassword] = useState<string | null>(null);
  return (
    <FormDialog
      label={t("addTeacher")}
      failure={formFailure}
      title={t("addTeacherTitle", { school: schoolName })}
      testId="add-teacher"
      submit={t("save")}
      keepOpen
      action={(v) => addTeacherAction({ ...v, schoolId })}
      success={t("teacherAdded")}
      onOk={(data) => setPassword(data.password)}
      after={
        password ? (
          <PasswordOnce message={t("passwordOnce", { password })} password={password} testId="teacher-password" />
        ) : null
      }
    >
      <Field name="name" label={t("teacherName")} />
      <Field name="nameKana" label={t("teacherKana")} required={false} />
      <Field name="email" label={t("colEmail")} type="email" />
    </FormDialog>
  );
}

/** Stop/resume a teacher (stopping after a confirmation) and move them to another school of the academy. */
export function TeacherActions({
  teacherId,
  name,
  disabled,
  schoolId,
  schools,
}: {
  teacherId: string;
  name: string;
  disabled: boolean;
  schoolId: string;
  schools: { id: string; name: string }[];
}) {
  const t = useTranslations("Schools");
  const plain = usePlainText();
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const [target, setTarget] = useState(schoolId);
  return (
    <div className="row actions wrap">
      <button
        type="button"
        className="button button-small"
        disabled={pending}
        data-testid="toggle-teacher"
        onClick={async () => {
          if (
            !disabled &&
            !(await confirm({
              title: t("disable"),
              body: t("disableConfirm", { name }),
              confirm: t("disable"),
              danger: true,
            }))
          )
            return;
          run(() => setTeacherDisabledAction({ teacherId, disabled: !disabled }), {
            success: disabled ? t("enabledDone") : t("disabledDone"),
            failure: failure(t),
          });
        }}
      >
        <RichTextClient text={disabled ? t("enable") : t("disable")} />
      </button>
      {schools.length > 1 ? (
        <>
          <select
            className="mode-select"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            aria-label={plain(t("moveTo", { name }))}
            data-testid="move-target"
          >
            {schools.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button button-small"
            disabled={pending || target === schoolId}
            data-testid="move-teacher"
            onClick={() =>
              run(() => moveTeacherAction({ teacherId, schoolId: target }), {
                success: t("movedDone"),
                failure: failure(t),
              })
            }
          >
            <RichTextClient text={t("move")} />
          </button>
        </>
      ) : null}
      {dialog}
    </div>
  );
}
