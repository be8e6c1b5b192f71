"use client";
import { useTranslations } from "next-intl";
import { useId, useState } from "react";
import { DownloadLink } from "@/platform/ui/download-link";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** The catalogue key naming each Japan profile (features/rostering/shared/oneroster-columns.ts ROSTER_PROFILES). */
const PROFILE_KEYS: Record<string, "profile12" | "profile121" | "profile12JP"> = {
  "1.2": "profile12",
  "1.2.1": "profile121",
  "1.2_JP": "profile12JP",
};

/**
 * The academy, or one school, as a OneRoster zip in the profile the receiver is configured for
 * (GET /api/v1/roster/export); the choice starts at the profile of the academy's last imported set.
 */
export function RosterExport({
  schools,
  profiles,
  profile: initial,
}: {
  schools: { id: string; name: string }[];
  profiles: readonly string[];
  profile: string;
}) {
  const t = useTranslations("Roster");
  const plain = usePlainText();
  const id = useId();
  const profileId = useId();
  const [school, setSchool] = useState("");
  const [profile, setProfile] = useState(initial);
  const query = new URLSearchParams({ ...(school ? { school } : {}), profile });
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
      <div className="field">
        <label htmlFor={profileId} className="field-label">
          <RichTextClient text={t("exportProfile")} />
        </label>
        <select
          id={profileId}
          value={profile}
          onChange={(e) => setProfile(e.target.value)}
          data-testid="roster-export-profile"
          aria-describedby={`${profileId}-hint`}
        >
          {profiles.map((p) => (
            <option key={p} value={p}>
              {plain(t(PROFILE_KEYS[p] ?? "profile12"))}
            </option>
          ))}
        </select>
        <p id={`${profileId}-hint`} className="muted">
          <RichTextClient text={t("exportProfileHint")} />
        </p>
      </div>
      <p>
        <DownloadLink
          className="button"
          href={`/api/v1/roster/export?${query}`}
          testId="roster-export"
          failure={() => plain(t("exportFailed"))}
        >
          <RichTextClient text={t("exportButton")} />
        </DownloadLink>
      </p>
    </div>
  );
}
