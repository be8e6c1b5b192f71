"use client";
import { useTranslations } from "next-intl";
import { useState } from "react";
import type { CsvEncoding } from "@/features/results/shared/csv-encoding";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

export interface ExportLink {
  href: string;
  /** Message markup. */
  label: string;
  testId: string;
}

/** The CSV downloads with their character set: UTF-8 with a BOM (Excel) by default, Shift_JIS on request. */
export function ExportLinks({ links }: { links: ExportLink[] }) {
  const t = useTranslations("Results");
  const plain = usePlainText();
  const [encoding, setEncoding] = useState<CsvEncoding>("utf8");
  const withEncoding = (href: string) =>
    encoding === "sjis" ? `${href}${href.includes("?") ? "&" : "?"}encoding=sjis` : href;
  return (
    <>
      <label className="field field-inline">
        <span className="field-label">
          <RichTextClient text={t("encoding")} />
        </span>
        <select
          value={encoding}
          onChange={(e) => setEncoding(e.target.value === "sjis" ? "sjis" : "utf8")}
          data-testid="export-encoding"
        >
          <option value="utf8">{plain(t("encodingUtf8"))}</option>
          <option value="sjis">{plain(t("encodingSjis"))}</option>
        </select>
      </label>
      {links.map((l) => (
        <a key={l.testId} className="button" href={withEncoding(l.href)} download data-testid={l.testId}>
          <RichTextClient text={l.label} />
        </a>
      ))}
    </>
  );
}
