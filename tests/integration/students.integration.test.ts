import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { AuthorizedSchoolId } from "@/lib/schools/scope";
import { listStudents } from "@/lib/students/data";
import {
  addStudent,
  balanceStudentGroups,
  issueNewCodes,
  readStudentCode,
  resetStudentPassword,
  revokeCodes,
  setStudentGroups,
  setStudentsDisabled,
} from "@/lib/students/mutations";
import { studentListQuery } from "@/lib/students/schema";
import { verifyPassword } from "@/lib/auth/password";
import { createAcademy, createSchool, createSigninCode, createUser, uniqueTag } from "../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "./helpers";

describe("student management: scope and mutations", () => {
  let mine: AuthorizedSchoolId;
  let theirStudent: string;
  let myStudent: string;
  const actorId = () => myStudent; // any existing user id serves as the audit actor

  beforeAll(async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `A${tag}`, nameKana: "えー" });
    const a = await createSchool(db(), { academyId: academy.id, name: `A${tag}`, nameKana: "えー" });
    const b = await createSchool(db(), { academyId: academy.id, name: `B${tag}`, nameKana: "びー" });
    mine = a.id as AuthorizedSchoolId;
    myStudent = (await createUser(db(), { role: "student", email: `m-${tag}@t.example`, schoolId: a.id, name: "自分 の生徒", nameKana: "じぶん のせいと", student: { grade: 1, className: "1", number: 1 } })).id;
    theirStudent = (await createUser(db(), { role: "student", email: `t-${tag}@t.example`, schoolId: b.id, name: "よそ の生徒", student: { grade: 1, className: "1", number: 1 } })).id;
    await createSigninCode(db(), myStudent, TEST_SIGNIN_CODE_KEY);
    await createSigninCode(db(), theirStudent, TEST_SIGNIN_CODE_KEY);
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("never touches or reveals another school's students", async () => {
    const ctx = { schoolId: mine, actorId: actorId() };
    const before = await db().user.findUniqueOrThrow({ where: { id: theirStudent } });
    expect(await setStudentsDisabled(ctx, [theirStudent], true)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await resetStudentPassword(ctx, theirStudent)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await issueNewCodes(ctx, [theirStudent])).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await revokeCodes(ctx, [theirStudent])).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await readStudentCode(ctx, theirStudent)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await db().user.findUniqueOrThrow({ where: { id: theirStudent } })).toEqual(before);
    expect(await db().signinCode.count({ where: { userId: theirStudent, revokedAt: null } })).toBe(1);
    // a mixed selection acts on the own students only
    expect(await setStudentsDisabled(ctx, [myStudent, theirStudent], true)).toEqual({ ok: true, data: { count: 1 } });
    expect((await db().user.findUniqueOrThrow({ where: { id: theirStudent } })).disabled).toBe(false);
    await setStudentsDisabled(ctx, [myStudent], false);
    const list = await listStudents(mine, studentListQuery.parse({}));
    expect(list.rows.map((r) => r.id)).toEqual([myStudent]);
  });

  it("adds students with a hashed initial password and a code; the same e-mail twice is a conflict", async () => {
    const ctx = { schoolId: mine, actorId: actorId() };
    const email = `add-${uniqueTag()}@t.example`;
    const added = await addStudent(ctx, { name: "追加 花子", nameKana: "ついか はなこ", email, grade: 2, className: "3", number: 4, group: "A" });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const user = await db().user.findUniqueOrThrow({ where: { id: added.data.id }, select: { passwordHash: true, schoolId: true, student: true } });
    expect(user.schoolId).toBe(mine);
    expect(await verifyPassword(user.passwordHash!, added.data.password)).toBe(true);
    expect(await db().signinCode.count({ where: { userId: added.data.id, revokedAt: null } })).toBe(1);
    const again = await addStudent(ctx, { name: "同じ メール", nameKana: "", email, grade: 2, className: "3", number: 5, group: null });
    expect(again).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { email: ["emailInUse"] } });
  });

  it("rotates codes: the old one is revoked, exactly one live code remains", async () => {
    const ctx = { schoolId: mine, actorId: actorId() };
    const old = await readStudentCode(ctx, myStudent);
    expect((await issueNewCodes(ctx, [myStudent])).ok).toBe(true);
    const fresh = await readStudentCode(ctx, myStudent);
    expect(old.ok && fresh.ok && old.data.code !== fresh.data.code).toBe(true);
    expect(await db().signinCode.count({ where: { userId: myStudent, revokedAt: null } })).toBe(1);
    expect((await revokeCodes(ctx, [myStudent])).ok).toBe(true);
    expect(await readStudentCode(ctx, myStudent)).toEqual({ ok: false, code: "NOT_FOUND" });
  });
});

describe("counterbalance groups", () => {
  it("set and balance only the own school's students", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `G${tag}`, nameKana: "じー" });
    const a = await createSchool(db(), { academyId: academy.id, name: `GA${tag}`, nameKana: "じーえー" });
    const b = await createSchool(db(), { academyId: academy.id, name: `GB${tag}`, nameKana: "じーびー" });
    const make = (schoolId: string, n: number) =>
      createUser(db(), { role: "student", email: `g${n}-${schoolId.slice(0, 6)}-${tag}@t.example`, schoolId, student: { grade: 1, className: "1", number: n } });
    const mine = [await make(a.id, 1), await make(a.id, 2), await make(a.id, 3)];
    const theirs = await make(b.id, 1);
    const ctx = { schoolId: a.id as AuthorizedSchoolId, actorId: mine[0]!.id };
    expect(await setStudentGroups(ctx, [theirs.id], "A")).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await balanceStudentGroups(ctx, "1", ["A", "B"])).toEqual({ ok: true, data: { count: 3 } });
    const groups = await db().studentDetail.findMany({ where: { userId: { in: mine.map((m) => m.id) } }, orderBy: { number: "asc" }, select: { counterbalanceGroup: true } });
    expect(groups.map((g) => g.counterbalanceGroup)).toEqual(["A", "B", "A"]);
    expect((await db().studentDetail.findUniqueOrThrow({ where: { userId: theirs.id } })).counterbalanceGroup).toBeNull();
  });
});
