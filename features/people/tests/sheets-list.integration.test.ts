import { describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { listStudentIdsForSheets, readSheetStudents, SHEETS_CHUNK } from "@/features/people/server/queries";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";

/** A print's students as the sheets route reads them: the ids in order, then a chunk at a time. */
async function listStudentsForSheets(
  schoolId: AuthorizedSchoolId,
  filter: { klass?: string; ids?: string[] },
  limit: number,
) {
  const ids = await listStudentIdsForSheets(schoolId, filter, limit);
  const rows: Awaited<ReturnType<typeof readSheetStudents>> = [];
  for (let i = 0; i < ids.length; i += SHEETS_CHUNK)
    rows.push(...(await readSheetStudents(schoolId, ids.slice(i, i + SHEETS_CHUNK))));
  return rows;
}

describe("the students of a sign-in sheets print (read a chunk at a time)", () => {
  it("every enabled student of the class, in seat order across chunk boundaries, with their code; nobody disabled, of another class or another school", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `P${tag}`, nameKana: "ぴー" });
    const school = await createSchool(db(), { academyId: academy.id, name: `P${tag}`, nameKana: "ぴー" });
    const other = await createSchool(db(), { academyId: academy.id, name: `Q${tag}`, nameKana: "きゅー" });
    const count = SHEETS_CHUNK * 6 + 37; // seven chunks, the last one short (and more than the limit of 300 below)
    const ids = Array.from({ length: count }, () => crypto.randomUUID());
    // created in shuffled seat order, so that the order comes from the query and not from insertion
    const seats = ids.map((_, i) => ((i * 7919) % count) + 1);
    await db().user.createMany({
      data: ids.map((id, i) => ({
        id,
        role: "student" as const,
        groupType: "school" as const,
        schoolId: school.id,
        name: `生徒 ${seats[i]}`,
      })),
    });
    await db().studentDetail.createMany({
      data: ids.map((userId, i) => ({ userId, grade: 2, className: "3", number: seats[i]! })),
    });
    await db().signinCode.createMany({
      data: ids.map((userId, i) => ({ userId, codeHash: `hash-${tag}-${i}`, codeEncrypted: `sealed-${seats[i]}` })),
    });
    const disabled = await createUser(db(), {
      role: "student",
      schoolId: school.id,
      name: "停止 中",
      disabled: true,
      student: { grade: 2, className: "3", number: count + 1 },
    });
    await createUser(db(), {
      role: "student",
      schoolId: school.id,
      name: "別 クラス",
      student: { grade: 2, className: "4", number: 1 },
    });
    await createUser(db(), {
      role: "student",
      schoolId: other.id,
      name: "よそ の生徒",
      student: { grade: 2, className: "3", number: 1 },
    });

    const rows = await listStudentsForSheets(school.id as AuthorizedSchoolId, { klass: "2:3" }, 1000);
    expect(rows.map((r) => r.student?.number)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(
      rows.every((r) => r.name === `生徒 ${r.student?.number}` && r.codeEncrypted === `sealed-${r.student?.number}`),
    ).toBe(true);
    expect(rows.some((r) => r.id === disabled.id)).toBe(false);
    expect(rows.every((r) => r.school?.name === `P${tag}`)).toBe(true);

    // the limit still reads one more than allowed (the route refuses past it)
    expect(await listStudentsForSheets(school.id as AuthorizedSchoolId, { klass: "2:3" }, 300)).toHaveLength(301);
    // and named ids keep to the school
    const named = await listStudentsForSheets(school.id as AuthorizedSchoolId, { ids: [ids[0]!, ids[1]!] }, 1000);
    expect(new Set(named.map((r) => r.id))).toEqual(new Set([ids[0], ids[1]]));
  });
});
