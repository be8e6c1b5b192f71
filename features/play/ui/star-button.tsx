"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { starAnswerAction } from "@/features/play/server/projector-actions";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { useActionRunner } from "@/platform/ui/use-action-runner";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** Stars (or unstars) one answer for the projector's "starred only" (the grid's answer panel: drawings too). */
export function StarButton({
  guideRef,
  responseId,
  starred,
}: {
  guideRef: { activityId: string; schoolId?: string; sessionId?: string };
  responseId: string;
  starred: boolean;
}) {
  const t = useTranslations("Projector");
  const plain = usePlainText();
  const { pending, run } = useActionRunner();
  const [on, setOn] = useState(starred);
  return (
    <button
      type="button"
      className="button button-small"
      aria-pressed={on}
      disabled={pending}
      data-testid="grid-star"
      onClick={() =>
        run(() => starAnswerAction({ ...guideRef, responseId, starred: !on }), {
          failure: plain(t("starFailed")),
          onOk: () => setOn(!on),
        })
      }
    >
      <span aria-hidden="true">{on ? "★ " : "☆ "}</span>
      <RichTextClient text={on ? t("unstar") : t("star")} />
    </button>
  );
}
