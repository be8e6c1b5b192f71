import { getTranslations } from "next-intl/server";
import { requireRole } from "@/platform/auth/session";
import {
  getAcademyEntraTenant,
  getAcademyOidcProvider,
  getAcademySecondFactorPolicy,
  listSchoolsForAcademy,
  listTeachersBySchool,
} from "@/features/people/server/school-queries";
import { PersonName } from "@/platform/ui/person-name";
import { DateTime } from "@/platform/ui/date-time";
import { NoPermission } from "@/platform/ui/layout/no-permission";
import { RichText } from "@/platform/ui/rich-text";
import Link from "next/link";
import type { ReactNode } from "react";
import { DeleteSchool } from "./delete-school";
import { EntraTenant } from "./entra-tenant";
import { OidcProvider } from "./oidc-provider";
import { publicUrl } from "@/platform/env";
import { graceDayOf } from "@/features/people/shared/second-factor-policy";
import { SecondFactorPolicy } from "./second-factor-policy";
import { AddTeacher, SchoolForm, TeacherActions } from "./school-forms";

/**
 * /dashboard/manager/schools: the academy's schools (create, rename, delete when empty) and their teachers (add,
 * disable, move); each school's people on its own page. `extra`: the academy settings of higher features (the LTI
 * platform), after the sign-in settings.
 */
export async function SchoolsPage({ extra }: { extra?: ReactNode } = {}) {
  const actor = await requireRole("manager");
  const t = await getTranslations("Schools");
  if (!actor.academyId) {
    return <NoPermission />;
  }
  const [schools, teachers, tenant, oidc, policy] = await Promise.all([
    listSchoolsForAcademy(actor.academyId),
    listTeachersBySchool(actor.academyId),
    getAcademyEntraTenant(actor.academyId),
    getAcademyOidcProvider(actor.academyId),
    getAcademySecondFactorPolicy(actor.academyId),
  ]);
  const choices = schools.map((s) => ({ id: s.id, name: s.name }));
  return (
    <div className="stack">
      <div className="row page-head">
        <h1>
          <RichText text={t("title")} />
        </h1>
        <span className="top-bar-spacer" />
        <SchoolForm />
      </div>
      <EntraTenant tenantId={tenant} />
      <OidcProvider current={oidc} origin={publicUrl()} />
      <SecondFactorPolicy
        require={policy?.requireSecondFactor ?? false}
        graceDay={graceDayOf(policy?.secondFactorGraceUntil ?? null)}
      />
      {extra}
      {schools.length === 0 ? (
        <p className="empty" data-testid="schools-empty">
          <RichText text={t("empty")} />
        </p>
      ) : (
        <ul className="stack bare-list" data-testid="manage-schools">
          {schools.map((s) => (
            <SchoolCard key={s.id} s={s} teachers={teachers.get(s.id) ?? []} choices={choices} />
          ))}
        </ul>
      )}
    </div>
  );
}

type School = Awaited<ReturnType<typeof listSchoolsForAcademy>>[number];
type Teacher = NonNullable<ReturnType<Awaited<ReturnType<typeof listTeachersBySchool>>["get"]>>[number];
type SchoolChoice = { id: string; name: string };

/** One school: its name and counts, its forms, the link to its people, and its teachers. */
async function SchoolCard({ s, teachers: list, choices }: { s: School; teachers: Teacher[]; choices: SchoolChoice[] }) {
  const t = await getTranslations("Schools");
  const tm = await getTranslations("ManageSchools");
  return (
    <li className="card stack" data-school-id={s.id} data-school-name={s.name}>
      <div className="row">
        <h2>
          <PersonName name={{ base: s.name, reading: s.nameKana }} />
        </h2>
        <span className="muted" data-testid="school-counts">
          <RichText text={t("counts", { teachers: s.teachers, students: s.students })} />
        </span>
        <span className="top-bar-spacer" />
        <SchoolForm school={{ id: s.id, name: s.name, nameKana: s.nameKana }} />
        <AddTeacher schoolId={s.id} schoolName={s.name} />
        <DeleteSchool schoolId={s.id} schoolName={s.name} />
      </div>
      <div className="row">
        <Link href={`/dashboard/manager/schools/${s.id}`} data-testid="school-people-link">
          <RichText text={tm("openPeople")} />
        </Link>
      </div>
      {list.length === 0 ? (
        <p className="empty" data-testid="no-teachers">
          <RichText text={t("noTeachers")} />
        </p>
      ) : (
        <TeacherTable teachers={list} schoolId={s.id} choices={choices} />
      )}
    </li>
  );
}

/** A school's teachers, one line each. */
async function TeacherTable({
  teachers,
  schoolId,
  choices,
}: {
  teachers: Teacher[];
  schoolId: string;
  choices: SchoolChoice[];
}) {
  const t = await getTranslations("Schools");
  return (
    <div className="table-wrap">
      <table className="table" data-testid="teacher-table">
        <thead>
          <tr>
            {(["colName", "colEmail", "colLastSignIn", "colStatus", "colActions"] as const).map((k) => (
              <th key={k} scope="col">
                <RichText text={t(k)} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {teachers.map((teacher) => (
            <TeacherRow key={teacher.id} teacher={teacher} schoolId={schoolId} choices={choices} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One teacher: name, email, last sign-in, status and actions. */
async function TeacherRow({
  teacher,
  schoolId,
  choices,
}: {
  teacher: Teacher;
  schoolId: string;
  choices: SchoolChoice[];
}) {
  const t = await getTranslations("Schools");
  return (
    <tr data-teacher-id={teacher.id} data-email={teacher.email ?? ""}>
      <th scope="row">
        {teacher.name ? <PersonName name={{ base: teacher.name, reading: teacher.nameKana }} /> : null}
      </th>
      <td>{teacher.email}</td>
      <td>
        <DateTime at={teacher.lastSignInAt} fallback={t("never")} />
      </td>
      <td data-testid="teacher-status">
        <RichText text={teacher.disabled ? t("disabled") : t("active")} />
      </td>
      <td>
        <TeacherActions
          teacherId={teacher.id}
          name={teacher.name ?? ""}
          disabled={teacher.disabled}
          schoolId={schoolId}
          schools={choices}
        />
      </td>
    </tr>
  );
}
