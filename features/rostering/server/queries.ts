import "server-only";
import { db } from "@/platform/db";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { DEFAULT_PROFILE, isProfileName, type ProfileName } from "@/features/rostering/shared/oneroster-columns";
import type { RosterFile } from "@/features/rostering/shared/oneroster-files";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import type { ClassFields } from "../shared/types";

/** A person as the plan compares them with the set. */
export interface DbUser {
  id: string;
  sourcedId: string | null;
  role: "student" | "teacher" | "manager";
  schoolId: string | null;
  /** The academy the user belongs to (through their school for students and teachers). */
  academyId: string | null;
  email: string | null;
  name: string | null;
  nameKana: string | null;
  familyName: string | null;
  givenName: string | null;
  kanaFamilyName: string | null;
  kanaGivenName: string | null;
  userMasterIdentifier: string | null;
  disabled: boolean;
  grade: number | null;
  className: string | null;
  number: number | null;
}

export interface DbClass extends ClassFields {
  id: string;
  schoolId: string;
  homeroomTeacherId: string | null;
}

export interface RosterState {
  academyId: string;
  schools: { id: string; name: string; sourcedId: string | null }[];
  /** orgs sourcedIds of the set that name a school of another academy. */
  foreignSchools: Set<string>;
  classes: DbClass[];
  /** Users named by the set, and every roster user (with a sourcedId) of the academy's schools, by sourcedId. */
  users: Map<string, DbUser>;
  /** Sourced ids of the academy's users by user id (to name 担任 and owners). */
  sourcedOf: Map<string, string>;
  /** Owners of the set's e-mails. */
  emailOwners: Map<string, { id: string; sourcedId: string | null }>;
  /**
   * Accounts added by hand (no sourcedId) whose e-mail the set names, by e-mail: candidates for a link
   * (the plan links only one of the same school and role).
   */
  unsourcedByEmail: Map<string, DbUser>;
  /** Owners of the set's userMasterIdentifiers. */
  umiOwners: Map<string, { id: string; sourcedId: string | null }>;
  /** Full seats of the academy's students: `${schoolId}|${grade}|${className}|${number}` → user id. */
  seats: Map<string, string>;
}

export const seatOf = (schoolId: string, grade: number | null, className: string | null, number: number | null) =>
  grade === null || className === null || number === null ? null : `${schoolId}|${grade}|${className}|${number}`;

const USER_SELECT = {
  id: true,
  sourcedId: true,
  role: true,
  schoolId: true,
  academyId: true,
  email: true,
  name: true,
  nameKana: true,
  familyName: true,
  givenName: true,
  kanaFamilyName: true,
  kanaGivenName: true,
  userMasterIdentifier: true,
  disabled: true,
  school: { select: { academyId: true } },
  student: { select: { grade: true, className: true, number: true } },
} as const;

type UserRow = {
  school: { academyId: string } | null;
  student: { grade: number | null; className: string | null; number: number | null } | null;
  academyId: string | null;
} & Omit<DbUser, "academyId" | "grade" | "className" | "number">;
function dbUser(u: UserRow): DbUser {
  const { school, student, ...rest } = u;
  return {
    ...rest,
    academyId: school?.academyId ?? u.academyId,
    grade: student?.grade ?? null,
    className: student?.className ?? null,
    number: student?.number ?? null,
  };
}

const CHUNK = 5000;
async function inChunks<T, R>(items: T[], run: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(...(await run(items.slice(i, i + CHUNK))));
  return out;
}

/**
 * What the plan needs to know of the database about this academy and this set (reads only; in the
 * caller's transaction when given: the rollover plans its set against the school as it has just moved up).
 */
export async function loadRosterState(
  academyId: string,
  set: RosterSet,
  tx: Prisma.TransactionClient = db(),
): Promise<RosterState> {
  const orgIds = set.orgs.filter((o) => o.type === "school").map((o) => o.sourcedId);
  const userIds = [...new Set([...set.users.map((u) => u.sourcedId), ...set.enrollments.map((e) => e.userSourcedId)])];
  const emails = [...new Set(set.users.flatMap((u) => (u.email?.trim() ? [u.email.trim().toLowerCase()] : [])))];
  const umis = [...new Set(set.users.flatMap((u) => (u.userMasterIdentifier ? [u.userMasterIdentifier] : [])))];
  const [schools, foreign, classes, named, academyUsers, owners, umiOwners] = await Promise.all([
    tx.school.findMany({
      where: { academyId },
      select: { id: true, name: true, sourcedId: true },
      orderBy: { createdAt: "asc" },
    }),
    orgIds.length
      ? tx.school.findMany({
          where: { sourcedId: { in: orgIds }, academyId: { not: academyId } },
          select: { sourcedId: true },
        })
      : [],
    tx.rosterClass.findMany({ where: { school: { academyId } } }),
    inChunks(userIds, (ids) => tx.user.findMany({ where: { sourcedId: { in: ids } }, select: USER_SELECT })),
    tx.user.findMany({ where: { school: { academyId }, sourcedId: { not: null } }, select: USER_SELECT }),
    inChunks(emails, (chunk) => tx.user.findMany({ where: { email: { in: chunk } }, select: USER_SELECT })),
    inChunks(umis, (chunk) =>
      tx.user.findMany({
        where: { userMasterIdentifier: { in: chunk } },
        select: { id: true, userMasterIdentifier: true, sourcedId: true },
      }),
    ),
  ]);
  const users = new Map<string, DbUser>();
  const sourcedOf = new Map<string, string>();
  for (const u of [...named, ...academyUsers]) {
    users.set(u.sourcedId!, dbUser(u));
    sourcedOf.set(u.id, u.sourcedId!);
  }
  const unsourcedByEmail = new Map(owners.filter((o) => o.sourcedId === null).map((o) => [o.email!, dbUser(o)]));
  const seatRows = await tx.studentDetail.findMany({
    // graduates keep their last seat as history but no longer hold it (the seat index counts only students at school)
    where: {
      user: { school: { academyId } },
      graduatedYear: null,
      grade: { not: null },
      className: { not: null },
      number: { not: null },
    },
    select: { userId: true, schoolId: true, grade: true, className: true, number: true },
  });
  const seats = new Map<string, string>();
  for (const s of seatRows) if (s.schoolId) seats.set(seatOf(s.schoolId, s.grade, s.className, s.number)!, s.userId);
  return {
    academyId,
    schools,
    foreignSchools: new Set(foreign.map((s) => s.sourcedId!)),
    classes,
    users,
    sourcedOf,
    emailOwners: new Map(owners.map((o) => [o.email!, { id: o.id, sourcedId: o.sourcedId }])),
    unsourcedByEmail,
    umiOwners: new Map(umiOwners.map((o) => [o.userMasterIdentifier!, { id: o.id, sourcedId: o.sourcedId }])),
    seats,
  };
}

/**
 * The rows the database already holds for this academy, for the reader's reference checks in
 * delta files: the product's schools, 組 and people, and every row of any kind an earlier set sent
 * that is not deleted (a delta may enrol a student in a scheduled class sent in the bulk set).
 */
export async function knownRosterRows(academyId: string): Promise<(kind: RosterFile, sourcedId: string) => boolean> {
  const [schools, classes, users, records] = await Promise.all([
    db().school.findMany({ where: { academyId, sourcedId: { not: null } }, select: { sourcedId: true } }),
    db().rosterClass.findMany({
      where: { school: { academyId } },
      select: { sourcedId: true, courseSourcedId: true, termSourcedId: true },
    }),
    db().user.findMany({ where: { school: { academyId }, sourcedId: { not: null } }, select: { sourcedId: true } }),
    // every row received before, of any kind (docs/oneroster.md "The sourcedId record")
    db().rosterRecord.findMany({ where: { academyId, status: "active" }, select: { kind: true, sourcedId: true } }),
  ]);
  const recorded = new Set(records.map((r) => `${r.kind}|${r.sourcedId}`));
  const byKind: Partial<Record<RosterFile, Set<string>>> = {
    orgs: new Set(schools.map((s) => s.sourcedId!)),
    classes: new Set(classes.map((c) => c.sourcedId)),
    courses: new Set(classes.flatMap((c) => (c.courseSourcedId ? [c.courseSourcedId] : []))),
    academicSessions: new Set(classes.flatMap((c) => (c.termSourcedId ? [c.termSourcedId] : []))),
    users: new Set(users.map((u) => u.sourcedId!)),
  };
  return (kind, sourcedId) => (byKind[kind]?.has(sourcedId) ?? false) || recorded.has(`${kind}|${sourcedId}`);
}

/** An academy named by its id or its exact name (null: none, or more than one of that name). */
export async function findAcademy(ref: string): Promise<{ id: string; name: string } | null> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  const rows = await db().academy.findMany({
    where: isId ? { OR: [{ id: ref }, { name: ref }] } : { name: ref },
    select: { id: true, name: true },
    take: 2,
  });
  return rows.length === 1 ? rows[0]! : null;
}

/** A school of the academy named by its id, its sourcedId or its exact name. */
export async function findSchool(academyId: string, ref: string): Promise<{ id: string; name: string } | null> {
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref);
  const rows = await db().school.findMany({
    where: { academyId, OR: [...(isId ? [{ id: ref }] : []), { sourcedId: ref }, { name: ref }] },
    select: { id: true, name: true },
    take: 2,
  });
  return rows.length === 1 ? rows[0]! : null;
}

/** The profile an export of the academy writes unless told another: that of its last applied set, else 1.2. */
export async function exportProfileOf(academyId: string): Promise<ProfileName> {
  const academy = await db().academy.findUnique({ where: { id: academyId }, select: { rosterProfile: true } });
  return isProfileName(academy?.rosterProfile) ? academy.rosterProfile : DEFAULT_PROFILE;
}
