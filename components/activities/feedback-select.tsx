"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { setFeedbackAction } from "@/lib/activities/actions";
import { FEEDBACK_TIMINGS, type FeedbackTiming } from "@/lib/activities/modes";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { usePlainText } from "@/components/ui/use-plain-text";
import { useSchoolRef } from "./editor-school";

/** When students see correct/incorrect for this activity (docs/product-design.md "Correct answers"); saved on change. */
export function FeedbackSelect({ activityId, feedback }: { activityId: string; feedback: FeedbackTiming }) {
  const t = useTranslations("Edit");
  const plain = usePlainText();
  const id = useId();
  const [value, setValue] = useState(feedback);
  const { pending, run } = useActionRunner();
  const school = useSchoolRef();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <RichTextClient text={t("feedbackLabel")} />
      </label>
      <select id={id} value={value} disabled={pending} aria-busy={pending} data-testid="feedback-select"
        onChange={(e) => {
          const next = e.target.value as FeedbackTiming;
          const before = value;
          setValue(next);
          run(() => setFeedbackAction({ ...school, activityId, feedback: next }), {
            success: t("feedbackSaved"),
            failure: () => {
              setValue(before);
              return t("feedbackFailed");
            },
          });
        }}>
        {FEEDBACK_TIMINGS.map((f) => (
          <option key={f} value={f}>
            {plain(t(`feedback.${f}`))}
          </option>
        ))}
      </select>
    </div>
  );
}
