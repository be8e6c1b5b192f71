"use client";
import { useTranslations } from "next-intl";
import { changeModeAction } from "@/features/activities/server/actions";
import { ACTIVITY_MODES, type ActivityMode, MODE_KEY } from "@/features/activities/shared/modes";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { activityErrorKey } from "./error-message";

export { MODE_KEY };

/** Changes an activity's mode: 'mode changed' on success, the translated failure otherwise. */
export function ModeSelect({
  activityId,
  mode,
  title,
  schoolId,
}: {
  activityId: string;
  mode: ActivityMode;
  title: string;
  schoolId?: string;
}) {
  const t = useTranslations("Activities");
  const plain = usePlainText();
  const { pending, run } = useActionRunner();
  return (
    <select
      className="mode-select"
      value={mode}
      disabled={pending}
      aria-busy={pending}
      aria-label={plain(t("modeLabel", { title }))}
      data-testid="mode-select"
      onChange={(e) => {
        const next = e.target.value as ActivityMode;
        run(() => changeModeAction({ activityId, mode: next, ...(schoolId ? { schoolId } : {}) }), {
          success: t("modeChanged"),
          failure: (code) => t(activityErrorKey("mode", code)),
        });
      }}
    >
      {ACTIVITY_MODES.map((m) => (
        <option key={m} value={m}>
          {plain(t(MODE_KEY[m]))}
        </option>
      ))}
    </select>
  );
}
