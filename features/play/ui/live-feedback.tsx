"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { liveFeedbackAction } from "@/features/play/server/feedback-actions";
import type { LiveFeedback } from "@/features/play/shared/live-feedback";
import type { SaveStatus } from "@/features/play/ui/use-answer-saver";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/**
 * The student's own ○/× and the key of the live scene, asked of the server once the teacher has shown the answer
 * (the stream carries only that it is shown). Asked again when a save of theirs settles, so an answer sent as the
 * scene closed is judged too; forgotten when the teacher hides it or moves on.
 */
export function useLiveFeedback(
  activityId: string,
  sceneId: string | null,
  revealed: boolean,
  status: SaveStatus,
): LiveFeedback | null {
  const [feedback, setFeedback] = useState<LiveFeedback | null>(null);
  const settled = status.kind !== "saving";
  useEffect(() => {
    if (!revealed || !sceneId || !settled) return;
    let current = true;
    void liveFeedbackAction({ activityId, sceneId }).then((r) => {
      if (current && r.ok) setFeedback(r.data);
    });
    return () => {
      current = false;
    };
  }, [activityId, sceneId, revealed, settled, status.kind]);
  return revealed && feedback && feedback.sceneId === sceneId ? feedback : null;
}

/** ○ or ×, or (no answer given) that the correct answer is marked below. */
export function LiveVerdict({ feedback }: { feedback: LiveFeedback }) {
  const t = useTranslations("Play");
  const { verdict } = feedback;
  return (
    <p
      className={`verdict verdict-${verdict ?? "none"}`}
      role="status"
      data-testid="live-verdict"
      data-verdict={verdict ?? "none"}
    >
      <RichTextClient
        text={
          verdict === "correct"
            ? t("verdictCorrect")
            : verdict === "incorrect"
              ? t("verdictIncorrect")
              : t("revealedNoAnswer")
        }
      />
    </p>
  );
}
