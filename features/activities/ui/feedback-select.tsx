"use client";
import { useTranslations } from "next-intl";
import { setActorTypeAction, setFeedbackAction, setRetriesAction } from "@/features/activities/server/actions";
import { FEEDBACK_TIMINGS, type FeedbackTiming } from "@/features/activities/shared/modes";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { useSchoolRef } from "./editor-school";
import { SettingSelect } from "./setting-select";

/**
 * When students see correct/incorrect for this activity (docs/product-design.md "Activities", feedback timing);
 * saved on change.
 */
export function FeedbackSelect({ activityId, feedback }: { activityId: string; feedback: FeedbackTiming }) {
  const t = useTranslations("Edit");
  const plain = usePlainText();
  const school = useSchoolRef();
  return (
    <SettingSelect
      label={t("feedbackLabel")}
      value={feedback}
      testId="feedback-select"
      options={FEEDBACK_TIMINGS.map((f) => ({ value: f, label: plain(t(`feedback.${f}`)) }))}
      save={(next) => setFeedbackAction({ ...school, activityId, feedback: next })}
      saved={t("feedbackSaved")}
      failed={() => t("feedbackFailed")}
    />
  );
}

/**
 * Who answers the activity (students, or teachers as in a staff survey); saved on change.
 * Refused while it has answers or runs (features/activities/server/commands.ts setActorType).
 */
export function ActorTypeSelect({ activityId, actorType }: { activityId: string; actorType: "student" | "teacher" }) {
  const t = useTranslations("Edit");
  const plain = usePlainText();
  const school = useSchoolRef();
  return (
    <SettingSelect
      label={t("actorLabel")}
      value={actorType}
      testId="actor-select"
      options={(["student", "teacher"] as const).map((a) => ({ value: a, label: plain(t(`actor.${a}`)) }))}
      save={(next) => setActorTypeAction({ ...school, activityId, actorType: next })}
      saved={t("actorSaved")}
      failed={(code) => t(code === "CONFLICT" ? "actorInUse" : "actorFailed")}
    />
  );
}

/** Whether a student may answer again after seeing the key (every attempt kept, the first marked); saved on change. */
export function RetriesSelect({ activityId, allowRetries }: { activityId: string; allowRetries: boolean }) {
  const t = useTranslations("Edit");
  const plain = usePlainText();
  const school = useSchoolRef();
  return (
    <SettingSelect
      label={t("retriesLabel")}
      value={allowRetries ? "allowed" : "final"}
      testId="retries-select"
      options={(["final", "allowed"] as const).map((r) => ({ value: r, label: plain(t(`retries.${r}`)) }))}
      save={(next) => setRetriesAction({ ...school, activityId, allowRetries: next === "allowed" })}
      saved={t("retriesSaved")}
      failed={() => t("retriesFailed")}
    />
  );
}
