"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import type { ApplyProgress } from "@/features/rostering/shared/types";
import { useConfirm } from "@/platform/ui/confirm-dialog";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";
import { RosterProblems, RosterSchools } from "./roster-plan";
import { applyRoster, checkRoster, type PlanAnswer } from "./roster-send";

type Phase = "idle" | "checking" | "checked" | "applying" | "applied";
const MAX_BYTES = 64 * 1024 * 1024;

const changes = (plan: PlanAnswer) =>
  plan.schools.reduce(
    (n, s) => n + [s.students, s.teachers, s.classes].reduce((m, c) => m + c.create + c.update + c.move + c.disable, 0),
    0,
  );

/**
 * Choose a OneRoster set (a zip, or its CSV files), check it (nothing is written), then apply
 * it after a confirmation, with progress after each school. Any problem: nothing can be applied.
 */
export function RosterImport() {
  const t = useTranslations("Roster");
  const plain = usePlainText();
  const notify = useNotify();
  const router = useRouter();
  const { confirm, dialog } = useConfirm();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [phase, setPhase] = useState<Phase>("idle");
  const [plan, setPlan] = useState<PlanAnswer | null>(null);
  const [progress, setProgress] = useState<ApplyProgress | null>(null);
  const [error, setError] = useState<string | null>(null);

  const failed = (status: number) => {
    setError(t(status === 413 ? "tooLarge" : status === 429 ? "busy" : status === 400 ? "unreadable" : "failed"));
    setPhase("idle");
  };
  const choose = (list: FileList | null) => {
    const chosen = Array.from(list ?? []);
    setPlan(null);
    setError(null);
    setPhase("idle");
    setFiles(chosen);
    if (chosen.reduce((n, f) => n + f.size, 0) > MAX_BYTES) setError(t("tooLarge"));
  };
  const check = async () => {
    setError(null);
    setPlan(null);
    setPhase("checking");
    const result = await checkRoster(files);
    if (!result.ok) return failed(result.status);
    setPlan(result.plan);
    setPhase("checked");
  };
  const apply = async () => {
    if (!plan) return;
    const ok = await confirm({
      title: plain(t("confirmTitle")),
      body: plain(t("confirmBody", { schools: plan.schools.length, changes: changes(plan) })),
      confirm: plain(t("apply")),
    });
    if (!ok) return;
    setPhase("applying");
    setProgress(null);
    const result = await applyRoster(files, setProgress);
    if (!result.ok) return failed(result.status);
    setPlan(result.plan);
    if (!result.plan.applied) return setPhase("checked");
    setPhase("applied");
    notify({ message: t("applied"), kind: "success" });
    router.refresh();
  };

  const busy = phase === "checking" || phase === "applying";
  return (
    <div className="stack" data-testid="roster-import" data-phase={phase}>
      <p className="muted">
        <RichTextClient text={t("importLead")} />
      </p>
      <FileField id={id} inputRef={input} disabled={busy} onChoose={choose} />
      <ImportButtons
        phase={phase}
        canCheck={!(busy || files.length === 0 || error === t("tooLarge"))}
        canApply={Boolean(plan && phase !== "applied" && plan.problems.length === 0 && changes(plan) > 0)}
        onCheck={check}
        onApply={apply}
      />
      {error ? (
        <p className="alert alert-error" role="alert" data-testid="roster-error">
          <span>
            <RichTextClient text={error} />
          </span>
        </p>
      ) : null}
      {phase === "applying" ? <ApplyProgressLine progress={progress} /> : null}
      {plan ? <PlanView plan={plan} /> : null}
      {dialog}
    </div>
  );
}

/** The file input: a zip or its CSV files. */
function FileField({
  id,
  inputRef,
  disabled,
  onChoose,
}: {
  id: string;
  inputRef: React.RefObject<HTMLInputElement | null>;
  disabled: boolean;
  onChoose: (list: FileList | null) => void;
}) {
  const t = useTranslations("Roster");
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        <RichTextClient text={t("fileLabel")} />
      </label>
      <input
        ref={inputRef}
        id={id}
        type="file"
        multiple
        accept=".zip,.csv,application/zip,text/csv"
        disabled={disabled}
        data-testid="roster-file"
        onChange={(e) => onChoose(e.target.files)}
      />
    </div>
  );
}

/** Check, and apply once a check found changes and no problem. */
function ImportButtons({
  phase,
  canCheck,
  canApply,
  onCheck,
  onApply,
}: {
  phase: Phase;
  canCheck: boolean;
  canApply: boolean;
  onCheck: () => void;
  onApply: () => void;
}) {
  const t = useTranslations("Roster");
  const busy = phase === "checking" || phase === "applying";
  return (
    <div className="row">
      <button
        type="button"
        className="button"
        disabled={!canCheck}
        aria-busy={phase === "checking"}
        onClick={onCheck}
        data-testid="roster-check"
      >
        <RichTextClient text={phase === "checking" ? t("checking") : t("check")} />
      </button>
      {canApply ? (
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          aria-busy={phase === "applying"}
          onClick={onApply}
          data-testid="roster-apply"
        >
          <RichTextClient text={phase === "applying" ? t("applying") : t("apply")} />
        </button>
      ) : null}
    </div>
  );
}

/** The progress of an apply, school by school. */
function ApplyProgressLine({ progress }: { progress: ApplyProgress | null }) {
  const t = useTranslations("Roster");
  return (
    <div className="stack" role="status" data-testid="roster-progress">
      <progress max={progress?.total ?? 1} value={progress?.done ?? 0} />
      <span>
        <RichTextClient
          text={
            progress
              ? t("progress", { done: progress.done, total: progress.total, school: progress.school })
              : t("applying")
          }
        />
      </span>
    </div>
  );
}

/** The plan checked or applied: its problems or warnings, what it does, and each school's changes. */
function PlanView({ plan }: { plan: PlanAnswer }) {
  const t = useTranslations("Roster");
  return (
    <div className="stack" data-testid="roster-plan" data-applied={plan.applied ? "1" : "0"}>
      {plan.problems.length > 0 ? <RosterProblems problems={plan.problems} /> : null}
      {plan.problems.length === 0 && plan.warnings?.length ? <RosterProblems problems={plan.warnings} warning /> : null}
      {plan.problems.length === 0 ? (
        <p className={plan.applied ? "alert alert-success" : "alert alert-info"} role="status">
          <span>
            <RichTextClient
              text={plan.applied ? t("appliedLead") : changes(plan) > 0 ? t("checkedLead") : t("nothingToDo")}
            />
          </span>
        </p>
      ) : null}
      <RosterSchools schools={plan.schools} />
    </div>
  );
}
