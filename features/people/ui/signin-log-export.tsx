"use client";
import { useTranslations } from "next-intl";
import { DownloadLink } from "@/platform/ui/download-link";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** The log with the page's filters as CSV (GET /api/v1/signin-log/export); a refusal (too many rows) is a notification. */
export function SigninLogExport({ search }: { search: string }) {
  const t = useTranslations("SigninLog");
  const plain = usePlainText();
  return (
    <DownloadLink
      className="button"
      href={`/api/v1/signin-log/export${search}`}
      testId="signin-log-export"
      failure={() => plain(t("exportFailed"))}
    >
      <RichTextClient text={t("export")} />
    </DownloadLink>
  );
}
