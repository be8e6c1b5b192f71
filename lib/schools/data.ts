import "server-only";
import { db } from "@/lib/db";

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
    db().user.groupBy({ by: ["schoolId", "role"], where: { schoolId: { in: ids }, disabled: false }, _count: { _all: true } }),
    db().activity.groupBy({ by: ["schoolId"], where: { schoolId: { in: ids }, status: "active" }, _count: { _all: true } }),
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
