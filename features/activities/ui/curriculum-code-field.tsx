"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { setCurriculumCodeAction, setSceneCurriculumCodeAction } from "@/features/activities/server/actions";
import { readCurriculumCode } from "@/features/activities/shared/curriculum-code";
import type { ActionResult } from "@/platform/errors";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { useSchoolRef } from "./editor-school";

/**
 * The 学習指導要領コード of the activity or of one scene (features/activities/shared/curriculum-code.ts): what it is,
 * with an example, a field and its save button. A code that is not 16 digits is refused here and by the action,
 * with the same message; empty clears it.
 */
function CurriculumCodeField({
  label,
  value,
  save,
  testId,
}: {
  label: string;
  value: string | null;
  save: (typed: string) => Promise<ActionResult<null>>;
  testId: string;
}) {
  const t = useTranslations("Edit");
  const id = useId();
  const [typed, setTyped] = useState(value ?? "");
  const [invalid, setInvalid] = useState(false);
  const { pending, run } = useActionRunner();
  const submit = () => {
    if (readCurriculumCode(typed) === undefined) return setInvalid(true);
    setInvalid(false);
    run(() => save(typed), {
      success: t("curriculumCodeSaved"),
      failure: (code) => {
        if (code === "VALIDATION") setInvalid(true);
        return t(code === "VALIDATION" ? "curriculumCodeInvalid" : "curriculumCodeFailed");
      },
    });
  };
  return (
    <form
      className="field"
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id} className="field-label">
        <RichTextClient text={label} />
      </label>
      <p className="muted" id={`${id}-hint`}>
        <RichTextClient text={t("curriculumCodeHint")} />
      </p>
      <span className="row">
        <input
          id={id}
          value={typed}
          inputMode="numeric"
          autoComplete="off"
          maxLength={100}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
          data-testid="curriculum-code"
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className="button" disabled={pending} aria-busy={pending}>
          <RichTextClient text={t("curriculumCodeSave")} />
        </button>
      </span>
      {invalid ? (
        <p className="field-error" id={`${id}-error`} role="alert" data-testid="field-error">
          <RichTextClient text={t("curriculumCodeInvalid")} />
        </p>
      ) : null}
    </form>
  );
}

/** The whole activity's code (a scene's own wins over it). */
export function ActivityCurriculumCode({ activityId, value }: { activityId: string; value: string | null }) {
  const t = useTranslations("Edit");
  const school = useSchoolRef();
  return (
    <CurriculumCodeField
      label={t("curriculumCodeLabel")}
      value={value}
      testId="activity-curriculum-code"
      save={(typed) => setCurriculumCodeAction({ ...school, activityId, curriculumCode: typed })}
    />
  );
}

/** One scene's own code (empty: the activity's applies). */
export function SceneCurriculumCode(props: { activityId: string; sceneId: string; value: string | null }) {
  const t = useTranslations("Edit");
  const school = useSchoolRef();
  const { activityId, sceneId } = props;
  return (
    <CurriculumCodeField
      label={t("curriculumCodeSceneLabel")}
      value={props.value}
      testId="scene-curriculum-code"
      save={(typed) => setSceneCurriculumCodeAction({ ...school, activityId, sceneId, curriculumCode: typed })}
    />
  );
}
