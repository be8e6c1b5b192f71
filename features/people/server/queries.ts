import "server-only";
import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
import { db } from "@/platform/db";
import { escapeLike } from "@/platform/db/query-text";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { PAGE_SIZE, seatNumberOf, type StudentListQuery } from "../shared/schema";
import { classFilterOf, type SchoolClass, sortClasses } from "../shared/class-key";

export interface StudentRow {
  id: string;
  name: string | null;
  nameKana: string | null;
  nickname: string | null;
  email: string | null;
  displayLanguage: string | null;
  grade: number | null;
  className: string | null;
  number: number | null;
  group: string | null;
  lastSignInAt: Date | null;
  disabled: boolean;
  hasCode: boolean;
  codeExpiresAt: Date | null;
  responses: number;
  /** The academic year the student graduated in (a graduate: listed only under 卒業生), else null. */
  graduatedYear: number | null;
}

function orderBy(q: StudentListQuery): Prisma.UserOrderByWithRelationInput[] {
  const dir = q.dir;
  const byClass: Prisma.UserOrderByWithRelationInput[] = [
    { student: { grade: dir } },
    { student: { className: dir } },
    { student: { number: dir } },
  ];
  switch (q.sort) {
    case "name":
      return [{ name: dir }, ...byClass];
    case "nameKana":
      return [{ nameKana: dir }, ...byClass];
    case "nickname":
      return [{ nickname: dir }, ...byClass];
    case "email":
      return [{ email: dir }, ...byClass];
    case "group":
      return [{ student: { counterbalanceGroup: dir } }, ...byClass];
    case "lastSignIn":
      return [{ lastSignInAt: { sort: dir, nulls: "last" } }, ...byClass];
    case "status":
      return [{ disabled: dir }, ...byClass];
    default:
      return byClass;
  }
}

/** One page of the school's students (server-side paging: smooth with 1,000 students), and the class list. */
export async function listStudents(schoolId: AuthorizedSchoolId, q: StudentListQuery) {
  const seat = q.q ? seatNumberOf(q.q) : null;
  const where: Prisma.UserWhereInput = {
    schoolId,
    role: "student",
    // graduates keep their last seat: listed apart, never mixed with the students at school
    AND: [
      q.view === "graduates"
        ? { student: { graduatedYear: { not: null } } }
        : { NOT: { student: { graduatedYear: { not: null } } } },
      ...(q.class ? [{ student: classFilterOf(q.class) }] : []),
    ],
    ...(q.q
      ? {
          OR: [
            // Prisma puts the text between % as is: its own % _ \ must be escaped to be taken literally
            { name: { contains: escapeLike(q.q), mode: "insensitive" } },
            { nameKana: { contains: escapeLike(q.q), mode: "insensitive" } },
            { nickname: { contains: escapeLike(q.q), mode: "insensitive" } },
            // a number is also a 番号: "7" finds seat 7 (and names holding a 7)
            ...(seat !== null ? [{ student: { number: seat } }] : []),
          ],
        }
      : {}),
  };
  const [total, users, classes] = await Promise.all([
    db().user.count({ where }),
    db().user.findMany({
      where,
      orderBy: orderBy(q),
      skip: (q.page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
      select: {
        id: true,
        name: true,
        nameKana: true,
        nickname: true,
        email: true,
        lastSignInAt: true,
        disabled: true,
        displayLanguage: true,
        student: {
          select: { grade: true, className: true, number: true, counterbalanceGroup: true, graduatedYear: true },
        },
        signinCodes: { where: { revokedAt: null }, select: { expiresAt: true }, take: 1 },
        _count: { select: { responses: true } },
      },
    }),
    listClasses(schoolId, q.view),
  ]);
  const rows: StudentRow[] = users.map((u) => ({
    id: u.id,
    name: u.name,
    nameKana: u.nameKana,
    nickname: u.nickname,
    email: u.email,
    displayLanguage: u.displayLanguage,
    grade: u.student?.grade ?? null,
    className: u.student?.className ?? null,
    number: u.student?.number ?? null,
    group: u.student?.counterbalanceGroup ?? null,
    lastSignInAt: u.lastSignInAt,
    disabled: u.disabled,
    hasCode: u.signinCodes.length > 0,
    codeExpiresAt: u.signinCodes[0]?.expiresAt ?? null,
    responses: u._count.responses,
    graduatedYear: u.student?.graduatedYear ?? null,
  }));
  return {
    rows,
    total,
    pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    classes,
  };
}

/** The classes of the school's students at school (or of its graduates' last seats), in school order. */
async function listClasses(schoolId: AuthorizedSchoolId, view: StudentListQuery["view"]): Promise<SchoolClass[]> {
  const rows = await db().studentDetail.findMany({
    where: {
      user: { schoolId },
      graduatedYear: view === "graduates" ? { not: null } : null,
      grade: { not: null },
      className: { not: null },
    },
    distinct: ["grade", "className"],
    select: { grade: true, className: true },
  });
  return sortClasses(
    rows.flatMap((c) => (c.grade === null || c.className === null ? [] : [{ grade: c.grade, className: c.className }])),
  );
}

/** The ids of the students to print, in class order; at most `limit` + 1 (to detect "too many"). */
export async function listStudentIdsForSheets(
  schoolId: AuthorizedSchoolId,
  filter: { klass?: string; ids?: string[] },
  limit: number,
): Promise<string[]> {
  // the order only (ids): the cards' fields are read by the renderer process, a chunk at a time (readSheetStudents)
  const order = await db().user.findMany({
    where: {
      schoolId,
      role: "student",
      disabled: false,
      ...(filter.klass ? { student: classFilterOf(filter.klass) } : {}),
      ...(filter.ids ? { id: { in: filter.ids } } : {}),
    },
    orderBy: [
      { student: { grade: "asc" } },
      { student: { className: "asc" } },
      { student: { number: "asc" } },
      { id: "asc" },
    ],
    take: limit + 1,
    select: { id: true },
  });
  return order.map((r) => r.id);
}

export type SheetStudent = Awaited<ReturnType<typeof readSheetStudents>>[number];

/**
 * What a card needs of these students (a chunk of listStudentIdsForSheets), in their order; one changed since
 * is left out. `client`: the sheets renderer process's own (features/people/server/sheets-cards.ts).
 */
export async function readSheetStudents(schoolId: AuthorizedSchoolId, ids: string[], client: PrismaClient = db()) {
  // one flat statement; still the school's enabled students
  const rows = await client.$queryRaw<SheetRow[]>`
    select u.id::text as id, u.name, u.name_kana, u.display_language, d.grade, d.class_name, d.number, s.name as school_name, c.code_encrypted
    from users u
    left join student_details d on d.user_id = u.id
    left join schools s on s.id = u.school_id
    left join lateral (select c.code_encrypted from signin_codes c where c.user_id = u.id and c.revoked_at is null limit 1) c on true
    where u.id = any(${ids}::uuid[]) and u.school_id = ${schoolId}::uuid and u.role = 'student' and not u.disabled`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        id: row.id,
        name: row.name,
        nameKana: row.name_kana,
        displayLanguage: row.display_language,
        student:
          row.grade === null && row.class_name === null && row.number === null
            ? null
            : { grade: row.grade, className: row.class_name, number: row.number },
        school: row.school_name === null ? null : { name: row.school_name },
        codeEncrypted: row.code_encrypted,
      },
    ];
  });
}

interface SheetRow {
  id: string;
  name: string | null;
  name_kana: string | null;
  display_language: string | null;
  grade: number | null;
  class_name: string | null;
  number: number | null;
  school_name: string | null;
  code_encrypted: string | null;
}

/** Students read (and cards made) per statement when printing sign-in sheets (a print's statements stay small). */
export const SHEETS_CHUNK = 50;

/** Counterbalance groups in use in the school (A, B, … ; A and B at least). */
export async function listGroups(schoolId: AuthorizedSchoolId): Promise<string[]> {
  const rows = await db().studentDetail.findMany({
    where: { user: { schoolId }, counterbalanceGroup: { not: null } },
    distinct: ["counterbalanceGroup"],
    select: { counterbalanceGroup: true },
  });
  const groups = new Set(["A", "B", ...rows.map((r) => r.counterbalanceGroup!)]);
  return [...groups].sort();
}
