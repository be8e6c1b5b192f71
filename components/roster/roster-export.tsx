"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { DownloadLink } from "@/components/ui/download-link";
import { RichTextClient } from "@/components/ui/rich-text-client";
import { usePlainText } from "@/components/ui/use-plain-text";

/** The academy, or one school, as a OneRoster zip (GET /api/v1/roster/export). */
export function RosterExport({ schools }: { schools: { id: string; name: string }[] }) {
  const t = useTranslations("Roster");
  const plain = usePlainText();
  const id = useId();
  const [school, setSchool] = useState("");
  return (
    <div className="stack">
      <p className="muted">
        <RichTextClient text={t("exportLead")} />
      </p>
      <div className="field">
        <label htmlFor={id} className="field-label">
          <RichTextClient text={t("exportWhich")} />
        </label>
        <select id={id} value={school} onChange={(e) => setSchool(e.target.value)} data-testid="roster-export-school">
          <option value="">{plain(t("exportAll"))}</option>
          {schools.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <p>
        <DownloadLink className="button" href={`/api/v1/roster/export${school ? `?school=${school}` : ""}`} testId="roster-export"
          failure={() => plain(t("exportFailed"))}>
          <RichTextClient text={t("exportButton")} />
        </DownloadLink>
      </p>
    </div>
  );
}
