"use client";
import { useTranslations } from "next-intl";
import type { ActionResult } from "@/platform/errors";
import { FormDialog } from "@/platform/ui/form-dialog";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { correctSchoolReadingAction, deleteSchoolReadingAction } from "../server/reading-actions";
import { MAX_READING, READING_EMPTY, READING_NOT_KANA, READING_TOO_LONG } from "../shared/school-readings";

type Failure = Extract<ActionResult<unknown>, { ok: false }>;
const READING_PROBLEMS = [READING_EMPTY, READING_NOT_KANA, READING_TOO_LONG] as const;

/**
 * A word of the school's list on the readings page: 「読みを直す」 (a dialog with the reading, kana only, the refusal
 * said in it) and 「消す」 (a dialog that asks first). `schoolId`: the school a manager names.
 */
export function ReadingActions({ base, reading, schoolId }: { base: string; reading: string; schoolId?: string }) {
  const t = useTranslations("SchoolReadings");
  const school = schoolId ? { schoolId } : {};
  const notify = useNotify();
  const failure = (r: Failure) => {
    const problem = r.fieldErrors?.reading?.[0];
    const known = READING_PROBLEMS.find((p) => p === problem);
    if (known) return t(known);
    if (r.code !== "NOT_FOUND") return t("failed");
    // a word another tab or teacher removed: the refreshed list drops its row (and this dialog) at once, so it is said
    // where it stays too
    notify({ message: t("notFound"), kind: "error" });
    return t("notFound");
  };
  return (
    <div className="row">
      <FormDialog
        label={t("correct")}
        title={t("correctTitle", { word: base })}
        testId="correct-reading"
        submit={t("correct")}
        action={(f) => correctSchoolReadingAction({ ...school, base, reading: f.reading ?? "" })}
        success={t("corrected")}
        failure={failure}
      >
        <label className="field">
          <span className="field-label">
            <RichTextClient text={t("readingLabel")} />
          </span>
          <input
            name="reading"
            defaultValue={reading}
            maxLength={MAX_READING + 10}
            autoComplete="off"
            lang="ja"
            data-testid="reading-input"
          />
        </label>
      </FormDialog>
      <FormDialog
        label={t("delete")}
        title={t("deleteTitle", { word: base })}
        testId="delete-reading"
        submit={t("delete")}
        action={() => deleteSchoolReadingAction({ ...school, base })}
        success={t("deleted")}
        failure={failure}
      >
        <p>
          <RichTextClient text={t("deleteConfirm", { word: base, reading })} />
        </p>
      </FormDialog>
    </div>
  );
}
