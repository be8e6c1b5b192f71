import "server-only";
import { db } from "@/platform/db";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import type { ClassNow } from "../shared/rollover-plan";

/** A student the rollover moves: every student of the school with a grade and a 組 who has not graduated (disabled ones too: they keep their seat). */
export interface RolloverStudent {
  userId: string;
  grade: number;
  className: string;
  number: number | null;
}

/** The school's students the rollover moves, in the caller's transaction (the write) or not (the preview). */
export async function readRolloverStudents(
  schoolId: AuthorizedSchoolId,
  tx: Prisma.TransactionClient = db(),
): Promise<RolloverStudent[]> {
  const rows = await tx.studentDetail.findMany({
    where: { schoolId, graduatedYear: null, grade: { not: null }, className: { not: null }, user: { role: "student" } },
    select: { userId: true, grade: true, className: true, number: true },
  });
  return rows.flatMap((r) =>
    r.grade !== null && r.className !== null
      ? [{ userId: r.userId, grade: r.grade, className: r.className, number: r.number }]
      : [],
  );
}

/** Students grouped by class (grade, 組), with their attendance numbers. */
export function classesOf(students: RolloverStudent[]): ClassNow[] {
  const classes = new Map<string, ClassNow>();
  for (const s of students) {
    const key = `${s.grade}\u0000${s.className}`;
    const c = classes.get(key) ?? { grade: s.grade, className: s.className, numbers: [] };
    c.numbers.push(s.number);
    classes.set(key, c);
  }
  return [...classes.values()];
}

export interface RolloverPreviewData {
  school: { id: string; name: string; nameKana: string; currentYear: number };
  /** Its homerooms' OneRoster grade codes ("J1"): with the name, what kind of school it is (features/rostering/shared/rollover-plan.ts defaultTopGrade). */
  gradeCodes: string[];
  classes: ClassNow[];
  /** Students without a grade or 組 (e.g. imported from the legacy product): they stay as they are. */
  unplaced: number;
  /** The school's active activities of this year or before: archived under their year. */
  activities: number;
}

/** What the rollover page shows before anything changes (the plan itself is features/rostering/shared/rollover-plan.ts, run in the browser too). */
export async function previewRollover(schoolId: AuthorizedSchoolId): Promise<RolloverPreviewData | null> {
  const school = await db().school.findUnique({
    where: { id: schoolId },
    select: { id: true, name: true, nameKana: true, currentYear: true },
  });
  if (!school) return null;
  const [students, unplaced, activities, codes] = await Promise.all([
    readRolloverStudents(schoolId),
    db().user.count({
      where: { schoolId, role: "student", disabled: false, student: { OR: [{ grade: null }, { className: null }] } },
    }),
    db().activity.count({ where: { schoolId, status: "active", academicYear: { lte: school.currentYear } } }),
    db().rosterClass.findMany({
      where: { schoolId, gradeCode: { not: null } },
      distinct: ["gradeCode"],
      select: { gradeCode: true },
    }),
  ]);
  return {
    school,
    gradeCodes: codes.flatMap((c) => (c.gradeCode ? [c.gradeCode] : [])),
    classes: classesOf(students),
    unplaced,
    activities,
  };
}
