import { getTranslations } from "next-intl/server";
import { requireRole } from "@/platform/auth/session";
import { PROFILE_NAMES } from "@/features/rostering/shared/oneroster-columns";
import { exportProfileOf } from "@/features/rostering/server/queries";
import { listSchoolsForAcademy } from "@/features/people/server/school-queries";
import { NoPermission } from "@/platform/ui/layout/no-permission";
import { RichText } from "@/platform/ui/rich-text";
import { RosterExport } from "./roster-export";
import { RosterImport } from "./roster-import";

/**
 * /dashboard/manager/roster: the academy's roster in and out as OneRoster 1.2 (Japan Profile)
 * sets: upload → dry run (per school, and every problem by file, line and column) → apply with
 * progress; and the export of the academy or one school (docs/oneroster.md).
 */
export async function RosterPage() {
  const actor = await requireRole("manager");
  const t = await getTranslations("Roster");
  if (!actor.academyId) {
    return <NoPermission />;
  }
  const [schools, profile] = await Promise.all([
    listSchoolsForAcademy(actor.academyId),
    exportProfileOf(actor.academyId),
  ]);
  return (
    <div className="stack">
      <h1>
        <RichText text={t("title")} />
      </h1>
      <p className="muted">
        <RichText text={t("lead")} />
      </p>
      <section className="card stack" aria-labelledby="roster-import">
        <h2 id="roster-import">
          <RichText text={t("importTitle")} />
        </h2>
        <RosterImport />
      </section>
      <section className="card stack" aria-labelledby="roster-export">
        <h2 id="roster-export">
          <RichText text={t("exportTitle")} />
        </h2>
        <RosterExport
          schools={schools.map((s) => ({ id: s.id, name: s.name }))}
          profiles={PROFILE_NAMES}
          profile={profile}
        />
      </section>
    </div>
  );
}
