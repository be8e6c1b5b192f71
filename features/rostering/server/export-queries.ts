import "server-only";
import { db } from "@/platform/db";

/**
 * The rows the academy has received and not seen deleted (docs/oneroster.md "The sourcedId record"), of
 * these schools and those of no school (districts, academic sessions), by kind and sourcedId.
 */
export function findRecordedRows(academyId: string, schoolSourcedIds: string[]) {
  return db().rosterRecord.findMany({
    where: {
      academyId,
      status: "active",
      OR: [{ schoolSourcedId: { in: schoolSourcedIds } }, { schoolSourcedId: null }],
    },
    orderBy: [{ kind: "asc" }, { sourcedId: "asc" }],
    select: { kind: true, sourcedId: true, fields: true },
  });
}

/** The academy's name, and the schools, their 組 and their people (a delta: with those disabled since) as held. */
export async function loadHeldRows(academyId: string, ids: string[], since: Date | undefined) {
  const [academy, schoolRows, classes, people] = await Promise.all([
    db().academy.findUniqueOrThrow({ where: { id: academyId }, select: { name: true } }),
    db().school.findMany({
      where: { id: { in: ids } },
      orderBy: { createdAt: "asc" },
      select: { id: true, name: true, sourcedId: true, updatedAt: true },
    }),
    db().rosterClass.findMany({
      where: { schoolId: { in: ids } },
      orderBy: [{ schoolId: "asc" }, { grade: "asc" }, { className: "asc" }],
    }),
    db().user.findMany({
      // a delta also names the people disabled since (as tobedeleted)
      where: {
        schoolId: { in: ids },
        role: { in: ["student", "teacher"] },
        ...(since ? { OR: [{ disabled: false }, { updatedAt: { gte: since } }] } : { disabled: false }),
      },
      orderBy: [{ role: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      select: {
        id: true,
        role: true,
        schoolId: true,
        sourcedId: true,
        userMasterIdentifier: true,
        email: true,
        name: true,
        nameKana: true,
        disabled: true,
        updatedAt: true,
        familyName: true,
        givenName: true,
        kanaFamilyName: true,
        kanaGivenName: true,
        student: { select: { grade: true, className: true, number: true, updatedAt: true } },
      },
    }),
  ]);
  return { academy, schoolRows, classes, people };
}

export type Held = Awaited<ReturnType<typeof loadHeldRows>>;

/** The people with these sourcedIds that the product holds (in any school). */
export function findUsersBySourcedId(sourcedIds: string[]) {
  return db().user.findMany({
    where: { sourcedId: { in: sourcedIds } },
    select: { sourcedId: true },
  });
}

/** The ids of the academy's schools (or of its one school `schoolId`), oldest first. */
export function findAcademySchoolIds(academyId: string, schoolId: string | undefined) {
  return db().school.findMany({
    where: { academyId, ...(schoolId ? { id: schoolId } : {}) },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
}
