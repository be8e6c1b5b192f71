"use client";
import { Fragment } from "react";
import { useTranslations } from "next-intl";
import { GRADES, STAGES, SUBJECTS, UNIT_MAX } from "@/features/activities/shared/library-tags";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** The stage whose first grade is `grade` (e1 → e): its whole-stage option comes just before it. */
const stageStartingAt = (grade: string) => STAGES.find((stage) => GRADES.find((g) => g.startsWith(stage)) === grade);

type Initial = { subject?: string | null; grade?: string | null; unit?: string };

/**
 * The subject and grade selects (closed lists): with "none" first when
 * tagging; "all" first when filtering the library, where each stage's grades
 * follow a choice of the whole stage (小学校（全学年）).
 */
export function TagSelects({
  idPrefix,
  initial,
  empty,
  inline,
}: {
  idPrefix: string;
  initial?: Initial;
  empty: "none" | "all";
  inline?: boolean;
}) {
  const t = useTranslations("Library");
  const plain = usePlainText();
  const lists = [
    {
      name: "subject",
      values: SUBJECTS,
      label: t("subject"),
      all: t("allSubjects"),
      text: (v: string) => t(`subjects.${v as (typeof SUBJECTS)[number]}`),
    },
    {
      name: "grade",
      values: GRADES,
      label: t("grade"),
      all: t("allGrades"),
      text: (v: string) => t(`grades.${v as (typeof GRADES)[number]}`),
    },
  ] as const;
  return lists.map((list) => (
    <label key={list.name} className={inline ? "field field-inline" : "field"}>
      <span className="field-label">
        <RichTextClient text={list.label} />
      </span>
      <select name={list.name} defaultValue={initial?.[list.name] ?? ""} data-testid={`${idPrefix}-${list.name}`}>
        <option value="">{plain(empty === "all" ? list.all : t("noTag"))}</option>
        {list.values.map((v) => (
          <Fragment key={v}>
            {list.name === "grade" && empty === "all" && stageStartingAt(v) ? (
              <option value={stageStartingAt(v)}>{plain(t(`stages.${stageStartingAt(v)!}`))}</option>
            ) : null}
            <option value={v}>{plain(list.text(v))}</option>
          </Fragment>
        ))}
      </select>
    </label>
  ));
}

/** Subject, grade and unit (free text): the fields publishing and retagging share. */
export function TagFields({ idPrefix, initial }: { idPrefix: string; initial?: Initial }) {
  const t = useTranslations("Library");
  return (
    <>
      <TagSelects idPrefix={idPrefix} initial={initial} empty="none" />
      <label className="field">
        <span className="field-label">
          <RichTextClient text={t("unit")} />
        </span>
        <input name="unit" defaultValue={initial?.unit ?? ""} maxLength={UNIT_MAX} data-testid={`${idPrefix}-unit`} />
      </label>
    </>
  );
}
