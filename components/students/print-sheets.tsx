"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import { useNotify } from "@/components/ui/notifications";
import { RichTextClient } from "@/components/ui/rich-text-client";

/** "Print sign-in sheets" for the class shown (or all): made on the server, with progress shown while it is made. */
export function PrintSheets({ className }: { className?: string }) {
  const t = useTranslations("Sheets");
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const print = async () => {
    setBusy(true);
    try {
      const res = await fetch(`/api/students/sheets${className ? `?class=${encodeURIComponent(className)}` : ""}`);
      if (!res.ok) {
        notify({ message: res.status === 413 ? t("tooMany") : t("pdfFailed"), kind: "error" });
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
  };
  return (
    <button type="button" className="button" onClick={() => void print()} disabled={busy} aria-busy={busy} data-testid="print-sheets">
      {busy ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
      <RichTextClient text={busy ? t("printing") : t("print")} />
    </button>
  );
}
