import "server-only";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";

/** A school's name and its reading, for a page's heading. */
export async function getSchoolName(scope: AuthorizedSchoolId): Promise<{ name: string; nameKana: string }> {
  return db().school.findUniqueOrThrow({ where: { id: scope }, select: { name: true, nameKana: true } });
}

export interface SchoolSummary {
  id: string;
  name: string;
  nameKana: string;
  teachers: number;
  students: number;
  activities: number;
}

/** The academy's schools with their counts (three grouped queries, whatever the number of schools). */
export async function listSchoolsForAcademy(academyId: string): Promise<SchoolSummary[]> {
  const schools = await db().school.findMany({
    where: { academyId },
    orderBy: { name: "asc" },
    select: { id: true, name: true, nameKana: true },
  });
  const ids = schools.map((s) => s.id);
  const [people, activities] = await Promise.all([
    db().user.groupBy({
      by: ["schoolId", "role"],
      where: { schoolId: { in: ids }, disabled: false },
      _count: { _all: true },
    }),
    db().activity.groupBy({
      by: ["schoolId"],
      where: { schoolId: { in: ids }, status: "active" },
      _count: { _all: true },
    }),
  ]);
  const count = (schoolId: string, role: "teacher" | "student") =>
    people.find((p) => p.schoolId === schoolId && p.role === role)?._count._all ?? 0;
  return schools.map((s) => ({
    ...s,
    teachers: count(s.id, "teacher"),
    students: count(s.id, "student"),
    activities: activities.find((a) => a.schoolId === s.id)?._count._all ?? 0,
  }));
}

export interface SchoolPerson {
  id: string;
  name: string | null;
  nameKana: string | null;
  email: string | null;
  disabled: boolean;
  seat: { grade: number | null; className: string | null; number: number | null } | null;
  /** A graduate's year of graduation (listed apart from the students at school), else null. */
  graduatedYear: number | null;
  /** How the person can sign in: a password, a live QR code, a linked Google or Microsoft account. */
  methods: SigninMethodName[];
}

export type SigninMethodName = "password" | "code" | "google" | "entra" | "oidc";

const methodsSelect = {
  passwordHash: true,
  accounts: { select: { provider: true } },
  signinCodes: { where: { revokedAt: null }, select: { expiresAt: true } },
} as const;

/** The sign-in methods of a person read with `methodsSelect` (the password hash never leaves this file). */
function methodsOf(row: {
  passwordHash: string | null;
  accounts: { provider: string }[];
  signinCodes: { expiresAt: Date | null }[];
}): SigninMethodName[] {
  const now = Date.now();
  const providers = new Set(row.accounts.map((a) => a.provider));
  return [
    row.passwordHash ? ("password" as const) : null,
    row.signinCodes.some((c) => !c.expiresAt || c.expiresAt.getTime() > now) ? ("code" as const) : null,
    providers.has("google") ? ("google" as const) : null,
    providers.has("microsoft-entra-id") ? ("entra" as const) : null,
    [...providers].some((p) => p.startsWith("oidc-")) ? ("oidc" as const) : null,
  ].filter((m) => m !== null);
}

/** The academy's Microsoft Entra ID tenant (null: not bound). */
export async function getAcademyEntraTenant(academyId: string): Promise<string | null> {
  const academy = await db().academy.findUnique({ where: { id: academyId }, select: { entraTenantId: true } });
  return academy?.entraTenantId ?? null;
}

/** The academy's own OpenID Connect provider as its manager sees it: everything but the secret (null: none). */
export function getAcademyOidcProvider(academyId: string) {
  return db().academyOidcProvider.findUnique({
    where: { academyId },
    select: { slug: true, displayName: true, issuer: true, clientId: true, identityClaim: true, allowedRoles: true },
  });
}
export type AcademyOidcProviderView = NonNullable<Awaited<ReturnType<typeof getAcademyOidcProvider>>>;

/** The academy's second-factor policy (features/people/shared/second-factor-policy.ts). */
export function getAcademySecondFactorPolicy(academyId: string) {
  return db().academy.findUnique({
    where: { id: academyId },
    select: { requireSecondFactor: true, secondFactorGraceUntil: true },
  });
}

/** One school's teachers, students and graduates (read-only lists for the manager; disabled accounts too), students by seat. */
export async function listSchoolPeople(scope: AuthorizedSchoolId) {
  const select = { id: true, name: true, nameKana: true, email: true, disabled: true, ...methodsSelect } as const;
  const [school, teachers, students] = await Promise.all([
    db().school.findUnique({
      where: { id: scope },
      select: { id: true, name: true, nameKana: true, currentYear: true },
    }),
    db().user.findMany({
      where: { schoolId: scope, role: "teacher" },
      orderBy: [{ nameKana: "asc" }, { name: "asc" }],
      select,
    }),
    db().user.findMany({
      where: { schoolId: scope, role: "student" },
      orderBy: [
        { student: { grade: "asc" } },
        { student: { className: "asc" } },
        { student: { number: "asc" } },
        { nameKana: "asc" },
      ],
      select: { ...select, student: { select: { grade: true, className: true, number: true, graduatedYear: true } } },
    }),
  ]);
  if (!school) return null;
  const person = ({ passwordHash, accounts, signinCodes, ...p }: (typeof teachers)[number]) => ({
    ...p,
    methods: methodsOf({ passwordHash, accounts, signinCodes }),
  });
  const people = students.map(({ student, ...s }): SchoolPerson => ({
    ...person(s),
    seat: student,
    graduatedYear: student?.graduatedYear ?? null,
  }));
  return {
    school,
    teachers: teachers.map((t): SchoolPerson => ({ ...person(t), seat: null, graduatedYear: null })),
    students: people.filter((p) => p.graduatedYear === null),
    graduates: people.filter((p) => p.graduatedYear !== null),
  };
}

export interface TeacherRow {
  id: string;
  name: string | null;
  nameKana: string | null;
  email: string | null;
  disabled: boolean;
  lastSignInAt: Date | null;
}

/** The academy's schools with their teachers (all of them, disabled too) for the schools screen. */
export async function listTeachersBySchool(academyId: string): Promise<Map<string, TeacherRow[]>> {
  const teachers = await db().user.findMany({
    where: { role: "teacher", school: { academyId } },
    orderBy: [{ nameKana: "asc" }, { name: "asc" }],
    select: { id: true, name: true, nameKana: true, email: true, disabled: true, lastSignInAt: true, schoolId: true },
  });
  const bySchool = new Map<string, TeacherRow[]>();
  for (const { schoolId, ...t } of teachers) {
    if (!schoolId) continue;
    bySchool.set(schoolId, [...(bySchool.get(schoolId) ?? []), t]);
  }
  return bySchool;
}
