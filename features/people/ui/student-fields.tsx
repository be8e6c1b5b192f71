"use client";
import { useTranslations } from "next-intl";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { refusesFormula } from "@/platform/names/person-name";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { DISPLAY_LANGUAGES } from "@/platform/i18n/languages";

export interface StudentValues {
  name: string;
  nameKana: string;
  nickname: string;
  email: string;
  /** Null for a student without a class yet (imported from the legacy product): the fields start empty. */
  grade: number | null;
  className: string | null;
  number: number | null;
  group: string;
  /** "" when the student has none of their own (the students' default). */
  displayLanguage: string;
}

/** The student's display language at sign-in (e.g. kana for a first-grader); options are plain text. */
function DisplayLanguageField({ value }: { value: string }) {
  const t = useTranslations("Language");
  const plain = usePlainText();
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={t("studentField")} />
      </span>
      <select name="displayLanguage" defaultValue={value} data-testid="student-display-language">
        <option value="">{plain(t("studentDefault"))}</option>
        {DISPLAY_LANGUAGES.map((lang) => (
          <option key={lang} value={lang}>
            {plain(t(lang))}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The fields of the add and edit forms (names match `studentInput`). */
export function StudentFields({ values }: { values?: StudentValues }) {
  const t = useTranslations("Students");
  const text = (field: "name" | "nameKana" | "nickname" | "email", type = "text", max = 100) => (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={t(field)} />
      </span>
      <input
        name={field}
        type={type}
        required={field === "name"}
        maxLength={max}
        defaultValue={values?.[field] ?? ""}
      />
    </label>
  );
  return (
    <div className="form-grid">
      {text("name")}
      {text("nameKana")}
      {text("nickname", "text", 50)}
      {text("email", "email", 254)}
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("grade")} />
        </span>
        <input name="grade" type="number" min={1} max={12} required defaultValue={values ? (values.grade ?? "") : 1} />
      </label>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("className")} />
        </span>
        <input name="className" required maxLength={10} defaultValue={values ? (values.className ?? "") : "1"} />
      </label>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("number")} />
        </span>
        <input name="number" type="number" min={1} max={99} required defaultValue={values?.number ?? undefined} />
      </label>
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("group")} />
        </span>
        <input name="group" maxLength={3} pattern="[A-Z]{0,3}" defaultValue={values?.group ?? ""} />
      </label>
      <DisplayLanguageField value={values?.displayLanguage ?? ""} />
    </div>
  );
}

/** The add/edit form's failure as the person should read it: the first field that is wrong, and why. */
export function useStudentFormError() {
  const t = useTranslations("Students");
  const rows = useTranslations("Import");
  return (result: { code: string; fieldErrors?: Record<string, string[]> }): string => {
    const fields = result.fieldErrors ?? {};
    if (fields.email?.includes("emailInUse")) return t("emailInUse");
    if (fields.number?.includes("seatTaken")) return t("seatTaken");
    if (result.code !== "VALIDATION") return t("failed");
    if (refusesFormula(fields)) return rows("row_formulaName");
    if (fields.name) return rows("row_missingName");
    if (fields.nameKana) return rows("row_badKana");
    if (fields.email) return rows("row_badEmail");
    if (fields.grade || fields.className || fields.number) return rows("row_badClass");
    if (fields.group) return rows("row_badGroup");
    return t("invalid");
  };
}
