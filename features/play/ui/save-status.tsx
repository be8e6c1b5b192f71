"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { SAVE_REFUSALS, type SaveRefusal } from "@/features/play/shared/answer-refusals";
import type { SaveStatus } from "@/features/play/ui/use-answer-saver";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** What happened to the answers, said plainly: saving, saved, offline (will be sent), or failed with why. */
export function SaveStatusLine({ status }: { status: SaveStatus }) {
  const t = useTranslations("Play");
  if (status.kind === "idle")
    return <p className="save-status" aria-live="polite" data-testid="save-status" data-status="idle" />;
  const text =
    status.kind === "failed"
      ? t("saveFailed", {
          reason: t(
            `refusal_${SAVE_REFUSALS.includes(status.reason as SaveRefusal) ? (status.reason as SaveRefusal) : "invalidAnswer"}`,
          ),
        })
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

const IDLE: SaveStatus = { kind: "idle" };

/**
 * The status as the scene `sceneId` shows it: "saving"/"saved" only for its
 * own answers, never one carried over from the scene before (what was current
 * when the scene was entered is not shown), except a saved that ends a
 * "not saved yet" (it concerns every answer). Trouble always shows.
 */
export function useSceneStatus(status: SaveStatus, sceneId: string): SaveStatus {
  const [entry, setEntry] = useState({ sceneId, status });
  const entered = entry.sceneId === sceneId ? entry.status : status;
  if (entry.sceneId !== sceneId) setEntry({ sceneId, status });
  if (status.kind !== "saving" && status.kind !== "saved") return status;
  if (status === entered) return IDLE;
  if (status.kind === "saved" && status.recovered) return status;
  return status.sceneIds?.includes(sceneId) ? status : IDLE;
}

/** The line above a scene: where the respondent is, and what happened to its answers. */
export function PlayHead({ progress, status, sceneId }: { progress: string; status: SaveStatus; sceneId: string }) {
  const shown = useSceneStatus(status, sceneId);
  return (
    <div className="row play-head">
      <p className="progress" data-testid="progress">
        <RichTextClient text={progress} />
      </p>
      <span className="top-bar-spacer" />
      <SaveStatusLine status={shown} />
    </div>
  );
}
