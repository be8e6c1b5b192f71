"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { setPacingAction } from "@/features/play/server/actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";

/**
 * Pacing in self mode (docs/adr/0063-pacing-in-self-mode.md): how many scenes students reach,
 * and "open the next one" during the lesson. The students' solo pages follow without a reload.
 */
export function PacingControl({
  activityId,
  schoolId,
  open,
  total,
}: {
  activityId: string;
  schoolId?: string;
  open: number | null;
  total: number;
}) {
  const t = useTranslations("LiveGrid");
  const plain = usePlainText();
  const router = useRouter();
  const { pending, run } = useActionRunner();
  const ref = { activityId, ...(schoolId ? { schoolId } : {}) };
  const set = (value: number | null) =>
    run(() => setPacingAction({ ...ref, open: value }), { failure: t("pacingFailed"), onOk: () => router.refresh() });
  return (
    <div className="stack" data-testid="pacing" data-open={open ?? "all"}>
      <p className="muted">
        <RichTextClient text={t("pacingHelp")} />
      </p>
      <div className="row wrap guide-bar">
        <label className="field field-inline">
          <span>{plain(t("pacingLabel"))}</span>
          <select
            className="mode-select"
            value={open ?? ""}
            disabled={pending}
            onChange={(e) => set(e.target.value === "" ? null : Number(e.target.value))}
            data-testid="pacing-select"
          >
            <option value="">{plain(t("pacingAll"))}</option>
            {Array.from({ length: Math.max(total - 1, 0) }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                {plain(t("pacingUpTo", { count: i + 1 }))}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button button-small"
          disabled={pending || open === null}
          onClick={() => open !== null && set(open + 1)}
          data-testid="pacing-next"
        >
          <RichTextClient text={t("openNext")} />
        </button>
      </div>
    </div>
  );
}
