import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { listStudents } from "@/features/people/server/queries";
import {
  addStudent,
  balanceStudentGroups,
  deleteStudents,
  importStudents,
  issueNewCodes,
  readStudentCode,
  resetStudentPassword,
  revokeCodes,
  setCodeExpiry,
  setStudentGroups,
  setStudentsDisabled,
  updateStudent,
} from "@/features/people/server/commands";
import { MAX_CSV_BYTES } from "@/features/people/shared/csv";
import { checkCode } from "@/platform/auth/credentials";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { endOfDayJst } from "@/platform/time";
import { studentListQuery } from "@/features/people/shared/schema";
import { verifyPassword } from "@/platform/auth/password";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createSigninCode,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "../../../tests/support/helpers";

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
    myStudent = (
      await createUser(db(), {
        role: "student",
        email: `m-${tag}@t.example`,
        schoolId: a.id,
        name: "自分 の生徒",
        nameKana: "じぶん のせいと",
        student: { grade: 1, className: "1", number: 1 },
      })
    ).id;
    theirStudent = (
      await createUser(db(), {
        role: "student",
        email: `t-${tag}@t.example`,
        schoolId: b.id,
        name: "よそ の生徒",
        student: { grade: 1, className: "1", number: 1 },
      })
    ).id;
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
    const added = await addStudent(ctx, {
      name: "追加 花子",
      nameKana: "ついか はなこ",
      email,
      grade: 2,
      className: "3",
      number: 4,
      group: "A",
    });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const user = await db().user.findUniqueOrThrow({
      where: { id: added.data.id },
      select: { passwordHash: true, schoolId: true, student: true },
    });
    expect(user.schoolId).toBe(mine);
    expect(await verifyPassword(user.passwordHash!, added.data.password)).toBe(true);
    expect(await db().signinCode.count({ where: { userId: added.data.id, revokedAt: null } })).toBe(1);
    const again = await addStudent(ctx, {
      name: "同じ メール",
      nameKana: "",
      email,
      grade: 2,
      className: "3",
      number: 5,
      group: null,
    });
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
      createUser(db(), {
        role: "student",
        email: `g${n}-${schoolId.slice(0, 6)}-${tag}@t.example`,
        schoolId,
        student: { grade: 1, className: "1", number: n },
      });
    const mine = [await make(a.id, 1), await make(a.id, 2), await make(a.id, 3)];
    const theirs = await make(b.id, 1);
    const ctx = { schoolId: a.id as AuthorizedSchoolId, actorId: mine[0]!.id };
    expect(await setStudentGroups(ctx, [theirs.id], "A")).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await balanceStudentGroups(ctx, { klass: "1:1" }, ["A", "B"])).toEqual({ ok: true, data: { count: 3 } });
    const groups = await db().studentDetail.findMany({
      where: { userId: { in: mine.map((m) => m.id) } },
      orderBy: { number: "asc" },
      select: { counterbalanceGroup: true },
    });
    expect(groups.map((g) => g.counterbalanceGroup)).toEqual(["A", "B", "A"]);
    expect(
      (await db().studentDetail.findUniqueOrThrow({ where: { userId: theirs.id } })).counterbalanceGroup,
    ).toBeNull();
  });
});

describe("edit, delete, code expiry", () => {
  const setup = async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `E${tag}`, nameKana: "いー" });
    const school = await createSchool(db(), { academyId: academy.id, name: `E${tag}`, nameKana: "いー" });
    const ctx = { schoolId: school.id as AuthorizedSchoolId, actorId: "" };
    const make = async (n: number) =>
      (
        await createUser(db(), {
          role: "student",
          email: `e${n}-${tag}@t.example`,
          schoolId: school.id,
          name: `生徒 ${n}`,
          student: { grade: 1, className: "1", number: n },
        })
      ).id;
    const a = await make(1);
    const b = await make(2);
    ctx.actorId = (await createUser(db(), { role: "teacher", email: `et-${tag}@t.example`, schoolId: school.id })).id;
    return { ctx, a, b, tag, school };
  };

  it("edits a student's details; an e-mail in use elsewhere is a conflict and changes nothing", async () => {
    const { ctx, a, b, tag } = await setup();
    expect(
      await updateStudent(ctx, a, {
        name: "新しい 名前",
        nameKana: "あたらしい なまえ",
        nickname: "あた",
        email: `new-${tag}@t.example`,
        grade: 2,
        className: "4",
        number: 9,
        group: "B",
      }),
    ).toEqual({ ok: true, data: null });
    const row = await db().user.findUniqueOrThrow({
      where: { id: a },
      select: { name: true, nameKana: true, nickname: true, email: true, student: true },
    });
    expect(row).toMatchObject({
      name: "新しい 名前",
      nameKana: "あたらしい なまえ",
      nickname: "あた",
      email: `new-${tag}@t.example`,
      student: { grade: 2, className: "4", number: 9, counterbalanceGroup: "B" },
    });
    const bEmail = (await db().user.findUniqueOrThrow({ where: { id: b } })).email;
    expect(
      await updateStudent(ctx, a, {
        name: "x",
        nameKana: "",
        email: bEmail,
        grade: 1,
        className: "1",
        number: 1,
        group: null,
      }),
    ).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { email: ["emailInUse"] } });
    expect((await db().user.findUniqueOrThrow({ where: { id: a } })).name).toBe("新しい 名前");
  });

  it("deletes students with their answers, and only the school's", async () => {
    const { ctx, a, b, school } = await setup();
    await syncTemplates(db(), await readTemplateFiles());
    const activity = await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id });
    const scene = await db().activityScene.findFirstOrThrow({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
    });
    await createResponse(db(), {
      activityId: activity.id,
      sceneId: scene.id,
      userId: a,
      answer: { type: "info" },
      scenePosition: 0,
    });
    await createResponse(db(), {
      activityId: activity.id,
      sceneId: scene.id,
      userId: b,
      answer: { type: "info" },
      scenePosition: 0,
    });
    expect(await deleteStudents(ctx, [a])).toEqual({ ok: true, data: { count: 1, responses: 1 } });
    expect(await db().user.findUnique({ where: { id: a } })).toBeNull();
    expect(await db().response.count({ where: { userId: b } })).toBe(1);
  });

  it("sets an expiry: the code stops working after that day, and a new code keeps the date", async () => {
    const { ctx, a } = await setup();
    const code = await createSigninCode(db(), a, TEST_SIGNIN_CODE_KEY);
    expect((await checkCode(code, "203.0.113.9")).ok).toBe(true);
    const past = new Date(Date.now() - 60_000);
    expect(await setCodeExpiry(ctx, [a], past)).toEqual({ ok: true, data: { count: 1 } });
    expect(await checkCode(code, "203.0.113.9")).toEqual({ ok: false, code: "invalidCode" });
    const endOfYear = endOfDayJst("2099-03-31");
    await setCodeExpiry(ctx, [a], endOfYear);
    expect((await checkCode(code, "203.0.113.9")).ok).toBe(true);
    await issueNewCodes(ctx, [a]);
    const live = await db().signinCode.findFirstOrThrow({ where: { userId: a, revokedAt: null } });
    expect(live.expiresAt).toEqual(endOfYear);
    expect(await setCodeExpiry(ctx, [a], null)).toEqual({ ok: true, data: { count: 1 } });
    expect((await db().signinCode.findFirstOrThrow({ where: { userId: a, revokedAt: null } })).expiresAt).toBeNull();
  });

  it("balances only the selected students", async () => {
    const { ctx, a, b } = await setup();
    await setStudentGroups(ctx, [a, b], null);
    expect(await balanceStudentGroups(ctx, { ids: [b] }, ["A", "B"])).toEqual({ ok: true, data: { count: 1 } });
    expect((await db().studentDetail.findUniqueOrThrow({ where: { userId: a } })).counterbalanceGroup).toBeNull();
    expect((await db().studentDetail.findUniqueOrThrow({ where: { userId: b } })).counterbalanceGroup).toBe("A");
  });
});

describe("CSV import", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  const setup = async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `I${tag}`, nameKana: "あい" });
    const school = await createSchool(db(), { academyId: academy.id, name: `I${tag}`, nameKana: "あい" });
    const teacher = await createUser(db(), { role: "teacher", email: `it-${tag}@t.example`, schoolId: school.id });
    const ctx = { schoolId: school.id as AuthorizedSchoolId, actorId: teacher.id };
    const count = () => db().user.count({ where: { schoolId: school.id, role: "student" } });
    return { ctx, tag, count, school };
  };

  it("previews without writing, then imports every row with a sign-in code", async () => {
    const { ctx, tag, count, school } = await setup();
    const csv = bytes(
      `学年,組,番号,氏名,ふりがな,メールアドレス\n2,1,1,石井 蓮,いしい れん,ren-${tag}@t.example\n2,1,2,上田 結衣,うえだ ゆい,\n`,
    );
    const preview = await importStudents(ctx, csv, false);
    expect(preview).toMatchObject({ ok: true, data: { valid: 2, invalid: 0, imported: 0 } });
    expect(await count()).toBe(0);
    expect(await importStudents(ctx, csv, true)).toMatchObject({ ok: true, data: { valid: 2, imported: 2 } });
    expect(await count()).toBe(2);
    const students = await db().user.findMany({
      where: { schoolId: school.id, role: "student" },
      select: { name: true, passwordHash: true, student: true, signinCodes: { where: { revokedAt: null } } },
    });
    expect(students.map((s) => s.name).sort()).toEqual(["上田 結衣", "石井 蓮"]);
    expect(students.every((s) => s.signinCodes.length === 1 && s.passwordHash === null && s.student?.grade === 2)).toBe(
      true,
    );
    // the same file again: every seat (and the e-mail) is taken, nothing is written
    const again = await importStudents(ctx, csv, true);
    expect(again.ok && again.data.rows.map((r) => r.errors)).toEqual([
      ["emailInUse", "duplicateSeat"],
      ["duplicateSeat"],
    ]);
    expect(await count()).toBe(2);
  });

  it("writes nothing when one row of many is bad", async () => {
    const { ctx, count } = await setup();
    const rows = Array.from({ length: 200 }, (_, i) => `3,2,${(i % 99) + 1},生徒 ${i},,`);
    const csv = bytes(`学年,組,番号,氏名,ふりがな,メール\n${rows.slice(0, 99).join("\n")}\n3,2,100,,,\n`);
    const result = await importStudents(ctx, csv, true);
    expect(result).toMatchObject({ ok: true, data: { invalid: 1, imported: 0 } });
    expect(result.ok && result.data.rows.find((r) => r.errors.length > 0)).toMatchObject({
      line: 101,
      errors: ["missingName", "badClass"],
    });
    expect(await count()).toBe(0);
  });

  it("refuses a file past the bounds with the reason", async () => {
    const { ctx, count } = await setup();
    expect(await importStudents(ctx, new Uint8Array(MAX_CSV_BYTES + 1), true)).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { file: ["tooLarge"] },
    });
    expect(await importStudents(ctx, bytes("氏名\n"), true)).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { file: ["noHeader"] },
    });
    expect(await count()).toBe(0);
  });
});
