import "server-only";
import { db } from "@/platform/db";

export interface AcademyListing {
  id: string;
  name: string;
  schools: number;
  managers: number;
}

/** Every academy with its number of schools and managers, for `npm run admin -- list-academies`. */
export async function listAcademies(): Promise<AcademyListing[]> {
  const rows = await db().academy.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, _count: { select: { schools: true, users: { where: { role: "manager" } } } } },
  });
  return rows.map((r) => ({ id: r.id, name: r.name, schools: r._count.schools, managers: r._count.users }));
}
