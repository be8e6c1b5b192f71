import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireRole } from "@/platform/auth/session";
import { previewRollover } from "@/features/rostering/server/rollover-queries";
import { defaultTopGrade, mayRollInto } from "@/features/rostering/shared/rollover-plan";
import { authorizeSchool } from "@/platform/auth/scope";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";
import { RolloverForm } from "./rollover-form";

/** /dashboard/manager/schools/{schoolId}/rollover: the year-end rollover's preview and its apply (features/rostering). */
export async function RolloverPage({ schoolId }: { schoolId: string }) {
  const actor = await requireRole("manager");
  const scope = await authorizeSchool(actor, schoolId);
  const data = scope ? await previewRollover(scope) : null;
  if (!data) notFound();
  const t = await getTranslations("Rollover");
  const year = data.school.currentYear;
  return (
    <div className="stack">
      <p>
        <Link href={`/dashboard/manager/schools/${data.school.id}`} data-testid="back-to-school">
          <RichText text={t("back")} />
        </Link>
      </p>
      <h1>
        <RichText text={t("title")} />
      </h1>
      <p className="muted">
        <PersonName name={{ base: data.school.name, reading: data.school.nameKana }} />
      </p>
      <p data-testid="rollover-current-year">
        <RichText text={t("currentYear", { year })} />
      </p>
      <p>
        <RichText text={t("intro", { from: year, to: year + 1 })} />
      </p>
      <RolloverForm
        schoolId={data.school.id}
        schoolName={data.school.name}
        year={year}
        classes={data.classes}
        inferredTop={defaultTopGrade({ name: data.school.name, gradeCodes: data.gradeCodes }, data.classes)}
        activities={data.activities}
        unplaced={data.unplaced}
        allowed={mayRollInto(year + 1, new Date())}
      />
    </div>
  );
}
