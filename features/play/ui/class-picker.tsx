"use client";
import { useTranslations } from "next-intl";
import type { SessionClass } from "@/features/play/shared/schema";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** The class (組) a live session is started for; "" is the whole school. `value`: the index in `classes`, as text. */
export function ClassPicker({
  classes,
  value,
  onChange,
}: {
  classes: SessionClass[];
  value: string;
  onChange: (value: string) => void;
}) {
  const t = useTranslations("LiveGrid");
  const plain = usePlainText();
  return (
    <label className="field">
      <span className="field-label">{plain(t("classPick"))}</span>
      <select
        className="mode-select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid="session-class-pick"
      >
        <option value="">{plain(t("wholeSchool"))}</option>
        {classes.map((c, i) => (
          <option key={`${c.grade}:${c.className}`} value={String(i)} data-class={`${c.grade}:${c.className}`}>
            {plain(t("classLabel", c))}
          </option>
        ))}
      </select>
    </label>
  );
}
