import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { addStudent, importStudents, updateStudent } from "@/features/people/server/commands";
import type { StudentInput } from "@/features/people/shared/schema";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";

/**
 * A seat (grade, class, attendance number) belongs to one student of a school
 * (docs/adr/0035-one-student-per-seat.md). Add, edit and import refuse a
 * taken seat with a field message, and the database refuses it too (a partial
 * unique index), so concurrent writers cannot both win. Students without a seat
 * (legacy imports) may be many.
 */
const setup = async () => {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `Z${tag}`, nameKana: "ぜっと" });
  const school = await createSchool(db(), { academyId: academy.id, name: `Z${tag}`, nameKana: "ぜっと" });
  const other = await createSchool(db(), { academyId: academy.id, name: `Y${tag}`, nameKana: "わい" });
  const teacher = await createUser(db(), { role: "teacher", email: `zt-${tag}@t.example`, schoolId: school.id });
  const ctx = { schoolId: school.id as AuthorizedSchoolId, actorId: teacher.id };
  const seated = (
    await createUser(db(), {
      role: "student",
      email: `z1-${tag}@t.example`,
      schoolId: school.id,
      name: "席 一",
      student: { grade: 1, className: "1", number: 1 },
    })
  ).id;
  const count = () => db().user.count({ where: { schoolId: school.id, role: "student" } });
  return { tag, school, other, ctx, seated, count };
};
const input = (over: Partial<StudentInput> = {}): StudentInput => ({
  name: "新 生徒",
  nameKana: "",
  email: null,
  grade: 1,
  className: "1",
  number: 1,
  group: null,
  ...over,
});
const SEAT_TAKEN = { ok: false, code: "CONFLICT", fieldErrors: { number: ["seatTaken"] } };

afterAll(async () => {
  await db().$disconnect();
});

describe("one student per seat", () => {
  it("add refuses a taken seat with a field message and writes nothing; another school's seat or a free number is fine", async () => {
    const { ctx, count, other, tag } = await setup();
    expect(await addStudent(ctx, input())).toEqual(SEAT_TAKEN);
    expect(await count()).toBe(1);
    expect((await addStudent(ctx, input({ number: 2 }))).ok).toBe(true);
    expect((await addStudent(ctx, input({ className: "2" }))).ok).toBe(true);
    expect(
      (await addStudent({ ...ctx, schoolId: other.id as AuthorizedSchoolId }, input({ email: `zo-${tag}@t.example` })))
        .ok,
    ).toBe(true);
    expect(await count()).toBe(3);
  });

  it("edit refuses moving onto another student's seat and changes nothing; keeping one's own seat is fine", async () => {
    const { ctx, seated, tag, school } = await setup();
    const second = (
      await createUser(db(), {
        role: "student",
        email: `z2-${tag}@t.example`,
        schoolId: school.id,
        name: "席 二",
        student: { grade: 1, className: "1", number: 2 },
      })
    ).id;
    expect(await updateStudent(ctx, second, input({ name: "動く 人" }))).toEqual(SEAT_TAKEN);
    expect(
      await db().user.findUniqueOrThrow({
        where: { id: second },
        select: { name: true, student: { select: { number: true } } },
      }),
    ).toEqual({ name: "席 二", student: { number: 2 } });
    expect(await updateStudent(ctx, seated, input({ name: "席 一の新しい名前" }))).toEqual({ ok: true, data: null });
  });

  it("students without a seat (imported from the legacy product) may be many; giving one a taken seat is refused", async () => {
    const { ctx, tag, school } = await setup();
    const unseated = [];
    for (const n of [1, 2, 3]) {
      const id = (await createUser(db(), { role: "student", email: `zn${n}-${tag}@t.example`, schoolId: school.id }))
        .id;
      await db().studentDetail.create({ data: { userId: id, grade: null, className: null, number: null } });
      unseated.push(id);
    }
    expect(await db().studentDetail.count({ where: { userId: { in: unseated }, number: null } })).toBe(3);
    expect(await updateStudent(ctx, unseated[0]!, input())).toEqual(SEAT_TAKEN);
    expect((await updateStudent(ctx, unseated[0]!, input({ number: 7 }))).ok).toBe(true);
  });

  it("the database itself refuses a second student on a seat (a write that skips the check)", async () => {
    const { tag, school } = await setup();
    const error = await createUser(db(), {
      role: "student",
      email: `zd-${tag}@t.example`,
      schoolId: school.id,
      student: { grade: 1, className: "1", number: 1 },
    }).then(
      () => null,
      (e: unknown) => e as { code?: string; meta?: unknown },
    );
    // the violation names the seat index (what the mutations read to tell a seat from an e-mail)
    expect(error?.code).toBe("P2002");
    expect(JSON.stringify(error?.meta)).toContain("student_details_school_seat_key");
    expect(
      await db().studentDetail.count({ where: { user: { schoolId: school.id }, grade: 1, className: "1", number: 1 } }),
    ).toBe(1);
  });

  it("concurrent adds of one free seat: exactly one wins, the others get the seat message", async () => {
    const { ctx, count } = await setup();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => addStudent(ctx, input({ name: `同時 ${i}`, number: 9 }))),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 5 }, () => SEAT_TAKEN));
    expect(await count()).toBe(2);
  });

  it("an import racing an add for the same seat: one wins, the import writes nothing and says why", async () => {
    const { ctx, count } = await setup();
    const csv = new TextEncoder().encode("学年,組,番号,氏名\n3,1,1,取り合い 一\n3,1,2,取り合い 二\n");
    const [imported, added] = await Promise.all([
      importStudents(ctx, csv, true),
      addStudent(ctx, input({ grade: 3, number: 2 })),
    ]);
    const importWon = imported.ok && imported.data.imported === 2;
    expect(importWon !== added.ok).toBe(true);
    if (importWon) expect(added).toEqual(SEAT_TAKEN);
    // the add committed first: the import's check saw the seat taken, or its write hit the index
    else if (imported.ok)
      expect(imported.data).toMatchObject({ imported: 0, rows: [{ errors: [] }, { errors: ["duplicateSeat"] }] });
    else expect(imported).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { file: ["seatTaken"] } });
    expect(await count()).toBe(importWon ? 3 : 2);
  });
});
