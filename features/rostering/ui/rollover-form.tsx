"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { applyRolloverAction } from "@/features/rostering/server/rollover-actions";
import { type ClassNow, confirmsSchoolName, planRollover } from "@/features/rostering/shared/rollover-plan";
import type { RolloverResult } from "@/features/rostering/server/rollover-commands";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { PrintSheets } from "@/features/people/ui/print-sheets";
import { RolloverSet } from "./rollover-set";
import { rolloverWithSet } from "./rollover-send";

interface Props {
  schoolId: string;
  /** The school's name: typed by the manager to confirm a rollover that graduates anyone. */
  schoolName: string;
  year: number;
  classes: ClassNow[];
  /** The top grade the page starts with (features/rostering/shared/rollover-plan.ts defaultTopGrade). */
  inferredTop: number;
  activities: number;
  unplaced: number;
  /** False when the school is already a year ahead of the calendar. */
  allowed: boolean;
}

const key = (grade: number, className: string) => `${grade}\u0000${className}`;

/** The rollover preview (class → class, counts, graduates), the top grade and new 組 to confirm, then apply and print the new cards. */
export function RolloverForm({
  schoolId,
  schoolName,
  year,
  classes,
  inferredTop,
  activities,
  unplaced,
  allowed,
}: Props) {
  const t = useTranslations("Rollover");
  const { pending, run } = useActionRunner();
  const { confirm, dialog } = useConfirm();
  const [topGrade, setTopGrade] = useState(inferredTop);
  const [moves, setMoves] = useState<Record<string, string>>({});
  const [result, setResult] = useState<RolloverResult | null>(null);
  // next year's set (optional): with it the set decides 組 and 番号, and the apply needs a clean preview first
  const [files, setFiles] = useState<File[]>([]);
  const [preview, setPreview] = useState<RolloverResult | null>(null);
  const withSet = files.length > 0;
  const setReady = !withSet || (preview !== null && (preview.roster?.problems.length ?? 1) === 0);
  const { classMoves, plan } = useRolloverPlan(classes, topGrade, moves);

  const apply = useApplyRollover({
    schoolId,
    schoolName,
    year,
    topGrade,
    files,
    classMoves,
    withSet,
    preview,
    graduates: plan.graduates,
    confirm,
    run,
    setPreview,
    setResult,
  });

  if (result) {
    return <RolloverDone result={result} schoolId={schoolId} />;
  }

  const grades = Array.from({ length: Math.max(6, inferredTop) }, (_, i) => i + 1);
  const blocked = !allowed || (classes.length === 0 && !withSet) || (!withSet && plan.clashes.length > 0) || !setReady;
  return (
    <div className="stack">
      <TopGradeField
        value={topGrade}
        grades={grades}
        onChange={(g) => {
          setTopGrade(g);
          setPreview(null);
        }}
      />
      <p className="muted">
        <RichTextClient text={t("keepHint")} />
      </p>
      {classes.length === 0 ? (
        <p className="empty" data-testid="rollover-empty">
          <RichTextClient text={t("noStudents")} />
        </p>
      ) : (
        <ClassTable steps={plan.steps} moves={moves} setMoves={setMoves} withSet={withSet} />
      )}
      <PlanNotes plan={plan} activities={activities} unplaced={unplaced} withSet={withSet} />
      <RolloverSet
        schoolId={schoolId}
        year={year}
        topGrade={topGrade}
        files={files}
        onFiles={setFiles}
        preview={preview}
        onPreview={setPreview}
        disabled={pending || !allowed}
      />
      <ApplyHints withSet={withSet} setReady={setReady} allowed={allowed} year={year} />
      <ApplyButton pending={pending} disabled={pending || blocked} onClick={apply} />
      {dialog}
    </div>
  );
}

/** The rollover done: its counts, and the new cards to print when ids were reissued. */
function RolloverDone({ result, schoolId }: { result: RolloverResult; schoolId: string }) {
  const t = useTranslations("Rollover");
  return (
    <section className="stack" aria-live="polite" data-testid="rollover-result">
      <h2>
        <RichTextClient text={t("done", { year: result.year })} />
      </h2>
      <p>
        <RichTextClient
          text={t("doneSummary", {
            promoted: result.promoted,
            graduated: result.graduated,
            archived: result.archived,
            reissued: result.reissuedIds.length,
          })}
        />
      </p>
      {result.reissuedIds.length > 0 ? (
        <div className="stack">
          <p>
            <RichTextClient text={t(result.roster ? "printHintSet" : "printHint")} />
          </p>
          <div>
            <PrintSheets schoolId={schoolId} ids={result.reissuedIds} testId="rollover-print" />
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** The top grade (its students graduate). */
function TopGradeField({
  value,
  grades,
  onChange,
}: {
  value: number;
  grades: number[];
  onChange: (grade: number) => void;
}) {
  const t = useTranslations("Rollover");
  const plain = usePlainText();
  return (
    <label className="field">
      <span className="field-label">
        <RichTextClient text={t("topGrade")} />
      </span>
      <select value={value} onChange={(e) => onChange(Number(e.target.value))} data-testid="rollover-top-grade">
        {grades.map((g) => (
          <option key={g} value={g}>
            {plain(t("gradeOption", { grade: g }))}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Each class, its count, and where it goes (graduates, or the next grade with its new 組 to type). */
function ClassTable({
  steps,
  moves,
  setMoves,
  withSet,
}: {
  steps: ReturnType<typeof planRollover>["steps"];
  moves: Record<string, string>;
  setMoves: React.Dispatch<React.SetStateAction<Record<string, string>>>;
  withSet: boolean;
}) {
  const t = useTranslations("Rollover");
  const plain = usePlainText();
  return (
    <div className="table-wrap">
      <table className="table" data-testid="rollover-table">
        <thead>
          <tr>
            {(["colClass", "colCount", "colNext"] as const).map((k) => (
              <th key={k} scope="col">
                <RichTextClient text={t(k)} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {steps.map((s) => (
            <tr key={key(s.grade, s.className)} data-class={`${s.grade}-${s.className}`}>
              <th scope="row" className="nowrap">
                <RichTextClient text={t("classLabel", { grade: s.grade, className: s.className })} />
              </th>
              <td>{s.count}</td>
              <td className="nowrap">
                {s.to === null ? (
                  <strong data-testid="rollover-graduates">
                    <RichTextClient text={t("graduates")} />
                  </strong>
                ) : (
                  <span className="row">
                    <RichTextClient text={t("nextGrade", { grade: s.to.grade })} />{" "}
                    <input
                      type="text"
                      size={4}
                      maxLength={10}
                      value={moves[key(s.grade, s.className)] ?? s.className}
                      disabled={withSet}
                      onChange={(e) => setMoves((m) => ({ ...m, [key(s.grade, s.className)]: e.target.value }))}
                      aria-label={plain(t("newClass", { grade: s.grade, className: s.className }))}
                      data-testid={`rollover-to-${s.grade}-${s.className}`}
                    />
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The plan's counts, the students without a class, and the seat clashes (without a set). */
function PlanNotes({
  plan,
  activities,
  unplaced,
  withSet,
}: {
  plan: ReturnType<typeof planRollover>;
  activities: number;
  unplaced: number;
  withSet: boolean;
}) {
  const t = useTranslations("Rollover");
  return (
    <>
      <p data-testid="rollover-summary">
        <RichTextClient
          text={t("summary", {
            promoted: plan.promoted,
            graduates: plan.graduates,
            reissued: plan.reissued,
            activities,
          })}
        />
      </p>
      {unplaced > 0 ? (
        <p className="muted">
          <RichTextClient text={t("unplaced", { count: unplaced })} />
        </p>
      ) : null}
      {!withSet && plan.clashes.length > 0 ? (
        <p role="alert" className="alert alert-error" data-testid="rollover-clash">
          <RichTextClient text={t("clash", { seats: plan.clashes.join(", ") })} />
        </p>
      ) : null}
    </>
  );
}

/** With a set: whether it is checked; too early in the year: when the rollover opens. */
function ApplyHints({
  withSet,
  setReady,
  allowed,
  year,
}: {
  withSet: boolean;
  setReady: boolean;
  allowed: boolean;
  year: number;
}) {
  const t = useTranslations("Rollover");
  return (
    <>
      {withSet ? (
        <p className="muted" data-testid="rollover-set-hint">
          <RichTextClient text={t(setReady ? "setClassHint" : "setNeedsCheck")} />
        </p>
      ) : null}
      {!allowed ? (
        <p role="status" data-testid="rollover-too-early">
          <RichTextClient text={t("tooEarly", { year: year + 1 })} />
        </p>
      ) : null}
    </>
  );
}

/** The apply button (a spinner while it runs). */
function ApplyButton({ pending, disabled, onClick }: { pending: boolean; disabled: boolean; onClick: () => void }) {
  const t = useTranslations("Rollover");
  return (
    <div>
      <button
        type="button"
        className="button button-danger"
        disabled={disabled}
        aria-busy={pending}
        data-testid="rollover-apply"
        onClick={onClick}
      >
        {pending ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
        <RichTextClient text={pending ? t("applying") : t("apply")} />
      </button>
    </div>
  );
}

/**
 * Confirm the rollover (with the graduates, when any, and the school's name typed), then apply it, with
 * next year's set when one is chosen; a set whose problems show up only then comes back as the preview.
 */
function useApplyRollover({
  schoolId,
  schoolName,
  year,
  topGrade,
  files,
  classMoves,
  withSet,
  preview,
  graduates: planGraduates,
  confirm,
  run,
  setPreview,
  setResult,
}: {
  schoolId: string;
  schoolName: string;
  year: number;
  topGrade: number;
  files: File[];
  classMoves: { grade: number; className: string; to: string }[];
  withSet: boolean;
  preview: RolloverResult | null;
  graduates: number;
  confirm: ReturnType<typeof useConfirm>["confirm"];
  run: ReturnType<typeof useActionRunner>["run"];
  setPreview: (preview: RolloverResult | null) => void;
  setResult: (result: RolloverResult) => void;
}) {
  const t = useTranslations("Rollover");
  const router = useRouter();
  const askToApply = useAskToApply(confirm, schoolName, year);
  return async () => {
    // the set's preview counts the graduates when there is one
    const graduates = withSet ? (preview?.graduated ?? planGraduates) : planGraduates;
    const confirmed = await askToApply(graduates);
    if (!confirmed) return;
    const { confirmName } = confirmed;
    const apply = () =>
      withSet
        ? rolloverWithSet(schoolId, year, topGrade, files, true, confirmName)
        : applyRolloverAction({ schoolId, expectedYear: year, topGrade, classMoves, confirmName });
    run(apply, {
      failure: (code) =>
        code === "CONFLICT"
          ? t("conflict")
          : code === "VALIDATION" && graduates > 0
            ? t("notConfirmed")
            : code === "VALIDATION" && !withSet
              ? t("seatClash")
              : t("failed"),
      onOk: (data) => {
        if (!data.applied) return setPreview(data); // the set's problems (the database changed since the preview): nothing changed
        setResult(data);
        router.refresh();
      },
    });
  };
}

/** The confirmation: when anyone graduates, it says how many and takes the school's name typed (null: cancelled). */
function useAskToApply(confirm: ReturnType<typeof useConfirm>["confirm"], schoolName: string, year: number) {
  const t = useTranslations("Rollover");
  return async (graduates: number): Promise<{ confirmName?: string } | null> => {
    let typedName = "";
    const typed =
      graduates > 0
        ? {
            label: t("confirmNameLabel"),
            matches: (text: string) => confirmsSchoolName(text, schoolName),
            onInput: (text: string) => void (typedName = text),
          }
        : undefined;
    const extra = typed ? (
      <p className="alert alert-error" data-testid="rollover-confirm-graduates">
        <RichTextClient text={t("confirmGraduates", { count: graduates, school: schoolName })} />
      </p>
    ) : undefined;
    if (
      !(await confirm({
        title: t("confirmTitle"),
        body: t("confirmBody", { from: year }),
        confirm: t("confirmButton"),
        danger: true,
        extra,
        typed,
      }))
    )
      return null;
    return typed ? { confirmName: typedName } : {};
  };
}

/** The class moves typed (only those that change a class) and the plan they make with the top grade. */
function useRolloverPlan(classes: ClassNow[], topGrade: number, moves: Record<string, string>) {
  const classMoves = useMemo(
    () =>
      classes.flatMap((c) => {
        const to = moves[key(c.grade, c.className)]?.trim();
        return to && to !== c.className ? [{ grade: c.grade, className: c.className, to }] : [];
      }),
    [classes, moves],
  );
  const plan = useMemo(() => planRollover(classes, topGrade, classMoves), [classes, topGrade, classMoves]);
  return { classMoves, plan };
}
