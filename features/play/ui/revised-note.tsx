"use client";
import { useTranslations } from "next-intl";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** Above a scene the teacher changed after this student answered it: answer the new question again. */
export function RevisedNote({ show }: { show: boolean }) {
  const t = useTranslations("Play");
  if (!show) return null;
  return (
    <p className="alert alert-info" role="status" data-testid="revised-note">
      <span>
        <RichTextClient text={t("revisedNote")} />
      </span>
    </p>
  );
}
