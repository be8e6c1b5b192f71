import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { Role } from "@/platform/auth/roles";
import { requireRole } from "@/platform/auth/session";
import { endsWithHonorific, shownName } from "@/platform/names/person-name";
import { PersonName } from "@/platform/ui/person-name";
import { RichMessage, SLOT } from "@/platform/ui/rich-message";
import { RichText } from "@/platform/ui/rich-text";
import { RespondentActivities } from "@/features/play/ui/student-activities";
import { ManagerSchools } from "./manager-home";
import { TeacherRunning } from "./teacher-home";

const TITLE_KEY = { student: "studentTitle", teacher: "teacherTitle", manager: "managerTitle" } as const;

/** Minimal role home (Foundation): greets the signed-in user. Later issues fill it. */
export async function HomePage({ role }: { role: Role }) {
  const actor = await requireRole(role);
  const t = await getTranslations("Home");
  const common = await getTranslations("Common");
  const markup = await getTranslations("Markup");
  const portfolio = await getTranslations("Portfolio");
  const name = shownName(actor);
  return (
    <div className="stack">
      <h1>
        <RichText text={t(TITLE_KEY[role])} />
      </h1>
      <p data-testid="welcome">
        <RichMessage
          text={t("welcome", { name: SLOT, honorific: name && endsWithHonorific(name.base) ? "no" : "yes" })}
          slots={[name ? <PersonName name={name} /> : <RichText text={common("guest")} />]}
        />
      </p>
      {role === "student" ? <RespondentActivities actor={actor} role="student" /> : null}
      {role === "teacher" ? <TeacherRunning actor={actor} /> : null}
      {role === "teacher" ? <RespondentActivities actor={actor} role="teacher" /> : null}
      {role === "manager" ? <ManagerSchools actor={actor} /> : null}
      {role === "teacher" ? (
        <p className="row">
          <Link href="/dashboard/teacher/portfolio" className="button" data-testid="portfolio-link">
            <RichText text={portfolio("link")} />
          </Link>
          <Link href="/dashboard/teacher/markup" data-testid="markup-link">
            <RichText text={markup("link")} />
          </Link>
        </p>
      ) : null}
    </div>
  );
}
