"use client";
import { useTranslations } from "next-intl";
import { useTransition } from "react";
import { changeModeAction } from "@/lib/activities/actions";
import { ACTIVITY_MODES, type ActivityMode } from "@/lib/activities/schema";
import type { ActionResult } from "@/lib/errors";
import { useNotify } from "@/components/ui/notifications";
import { usePlainText } from "@/components/ui/use-plain-text";
import { activityErrorKey } from "./error-message";

export const MODE_KEY = { standby: "modeStandby", guide: "modeGuide", self: "modeSelf", complete: "modeComplete" } as const;

/** Changes an activity's mode: 'mode changed' on success, the translated failure otherwise. */
export function ModeSelect({ activityId, mode, title, schoolId }: { activityId: string; mode: ActivityMode; title: string; schoolId?: string }) {
  const t = useTranslations("Activities");
  const plain = usePlainText();
  const notify = useNotify();
  const [pending, startTransition] = useTransition();
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
        startTransition(async () => {
          const result = await changeModeAction({ activityId, mode: next, ...(schoolId ? { schoolId } : {}) }).catch(
            (): ActionResult<null> => ({ ok: false, code: "INTERNAL" }),
          );
          if (result.ok) notify({ message: t("modeChanged"), kind: "success" });
          else notify({ message: t(activityErrorKey("mode", result.code)), kind: "error" });
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
