"use client";
import { useTranslations } from "next-intl";
import { useCallback, useState } from "react";
import { useNotify } from "@/platform/ui/notifications";
import { RichTextClient } from "@/platform/ui/rich-text-client";

/** Asks the server for the sign-in sheets PDF (a POST: it may issue codes) and saves it; `busy` while it is made. */
export function useSheetsDownload() {
  const t = useTranslations("Sheets");
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const download = useCallback(
    async (query: URLSearchParams) => {
      setBusy(true);
      try {
        const res = await fetch("/api/students/sheets", { method: "POST", body: query });
        if (!res.ok) {
          notify({
            message: t(
              res.status === 413 ? "tooMany" : res.status === 429 || res.status === 503 ? "busy" : "pdfFailed",
            ),
            kind: "error",
          });
          return;
        }
        const url = URL.createObjectURL(await res.blob());
        const a = document.createElement("a");
        a.href = url;
        a.download = "signin-sheets.pdf";
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch {
        notify({ message: t("pdfFailed"), kind: "error" });
      } finally {
        setBusy(false);
      }
    },
    [notify, t],
  );
  return { busy, download };
}

/** "Print sign-in sheets" for the class shown (or all), or for the selected students. */
export function PrintSheets({
  klass,
  ids,
  schoolId,
  testId = "print-sheets",
}: {
  /** The class key (features/people/shared/class-key.ts). */
  klass?: string;
  ids?: string[];
  schoolId?: string;
  testId?: string;
}) {
  const t = useTranslations("Sheets");
  const { busy, download } = useSheetsDownload();
  const query = new URLSearchParams();
  if (schoolId) query.set("schoolId", schoolId); // a manager's print (the rollover's reissued cards)
  if (ids) query.set("ids", ids.join(","));
  else if (klass) query.set("class", klass);
  return (
    <button
      type="button"
      className="button"
      onClick={() => void download(query)}
      disabled={busy}
      aria-busy={busy}
      data-testid={testId}
    >
      {busy ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
      <RichTextClient text={busy ? t("printing") : t("print")} />
    </button>
  );
}
