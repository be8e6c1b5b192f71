"use client";
import { useTranslations } from "next-intl";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";

export function CopyButton({ text }: { text: string }) {
  const t = useTranslations("Students");
  const notify = useNotify();
  return (
    <button
      type="button"
      className="button button-small"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => notify({ message: t("copied"), kind: "success" }),
          () => undefined,
        );
      }}
    >
      <RichTextClient text={t("copy")} />
    </button>
  );
}

/** A password shown once (after add or reset), with its copy button; never shown again. */
export function PasswordOnce({ message, password, testId }: { message: string; password: string; testId: string }) {
  return (
    <div className="alert alert-success" role="status" data-testid={testId} data-password={password}>
      <span>
        <RichTextClient text={message} />
      </span>
      <CopyButton text={password} />
    </div>
  );
}
