"use client";
import { useTranslations } from "next-intl";
import { SAVE_REFUSALS, type SaveRefusal } from "@/lib/responses/refusals";
import type { SaveStatus } from "@/components/answers/use-answer-saver";
import { RichTextClient } from "@/components/ui/rich-text-client";

/** What happened to the answers, said plainly: saving, saved, offline (will be sent), or failed with why. */
export function SaveStatusLine({ status }: { status: SaveStatus }) {
  const t = useTranslations("Play");
  if (status.kind === "idle") return <p className="save-status" aria-live="polite" data-testid="save-status" data-status="idle" />;
  const text =
    status.kind === "failed"
      ? t("saveFailed", { reason: t(`refusal_${SAVE_REFUSALS.includes(status.reason as SaveRefusal) ? (status.reason as SaveRefusal) : "invalidAnswer"}`) })
      : t(`save_${status.kind}`);
  return (
    <p
      className={`save-status save-${status.kind}`}
      role={status.kind === "failed" ? "alert" : "status"}
      aria-live="polite"
      data-testid="save-status"
      data-status={status.kind}
    >
      <RichTextClient text={text} />
    </p>
  );
}

/** The line above a scene: where the respondent is, and what happened to their answers. */
export function PlayHead({ progress, status }: { progress: string; status: SaveStatus }) {
  return (
    <div className="row play-head">
      <p className="progress" data-testid="progress">
        <RichTextClient text={progress} />
      </p>
      <span className="top-bar-spacer" />
      <SaveStatusLine status={status} />
    </div>
  );
}
