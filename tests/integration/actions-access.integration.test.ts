/**
 * The access matrix of every server action, called the way the browser calls
 * them (the real wrapper, zod, role and scope checks, real PostgreSQL). Only
 * the request is made up: its Cookie header carries a session token made
 * the way next-auth makes it (read by the real getActor), and Next's cache
 * revalidation (which needs a request) is a no-op.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import { SESSION_COOKIE } from "@/lib/auth/cookies";

const session = vi.hoisted(() => ({ cookie: "" }));
vi.mock("next/headers", () => {
  const headers = async () => new Headers(session.cookie ? { cookie: session.cookie } : {});
  const cookies = async () => {
    const list = session.cookie ? [{ name: session.cookie.slice(0, session.cookie.indexOf("=")), value: session.cookie.slice(session.cookie.indexOf("=") + 1) }] : [];
    return { has: (name: string) => list.some((c) => c.name === name), getAll: () => list, get: (name: string) => list.find((c) => c.name === name) };
  };
  return { headers, cookies };
});
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import * as activityActions from "@/lib/activities/actions";
import * as liveActions from "@/lib/live/actions";
import { cellReasonsAction } from "@/lib/results/actions";
import { db } from "@/lib/db";
import type { ActionResult } from "@/lib/errors";
import * as schoolActions from "@/lib/schools/actions";
import * as studentActions from "@/lib/students/actions";
import { readTemplateFiles, syncTemplates } from "@/lib/templates/load";
import { createAcademy, createActivityFromTemplate, createSchool, createSigninCode, createUser, uniqueTag } from "../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "./helpers";

type Who = "nobody" | "student" | "teacher" | "otherTeacher" | "noSchoolTeacher" | "manager" | "otherManager";
const ids = {} as Record<Exclude<Who, "nobody">, string> & { school: string; sibling: string; foreign: string; target: string; targetTeacher: string; activity: string };

const roles: Record<Exclude<Who, "nobody">, string> = {
  student: "student", teacher: "teacher", otherTeacher: "teacher", noSchoolTeacher: "teacher", manager: "manager", otherManager: "manager",
};
async function as<T>(who: Who, call: () => Promise<ActionResult<T>>) {
  const salt = SESSION_COOKIE;
  session.cookie = who === "nobody" ? "" : `${salt}=${await encode({ token: { sub: ids[who], role: roles[who] }, secret: process.env.AUTH_SECRET!, salt })}`;
  return call();
}

/** Everything a refused call must leave untouched. */
async function snapshot() {
  const [users, details, codes, schools, activities] = await Promise.all([
    db().user.findMany({ where: { OR: [{ schoolId: { in: [ids.school, ids.sibling, ids.foreign] } }, { id: { in: [ids.manager, ids.otherManager] } }] }, orderBy: { id: "asc" }, omit: { lastActiveAt: true } }), // the actor's own last use is recorded
    db().studentDetail.findMany({ where: { user: { schoolId: { in: [ids.school, ids.sibling, ids.foreign] } } }, orderBy: { userId: "asc" } }),
    db().signinCode.findMany({ where: { user: { schoolId: { in: [ids.school, ids.sibling, ids.foreign] } } }, orderBy: { id: "asc" } }),
    db().school.findMany({ where: { id: { in: [ids.school, ids.sibling, ids.foreign] } }, orderBy: { id: "asc" } }),
    db().activity.findMany({ where: { schoolId: { in: [ids.school, ids.sibling, ids.foreign] } }, orderBy: { id: "asc" } }),
  ]);
  return { users, details, codes, schools, activities };
}

const csv = () => {
  const file = new File(["学年,組,番号,氏名\n3,9,1,侵入 太郎\n"], "x.csv", { type: "text/csv" });
  const form = new FormData();
  form.set("file", file);
  form.set("commit", "1");
  return form;
};

beforeAll(async () => {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `M${tag}`, nameKana: "えむ" });
  const other = await createAcademy(db(), { name: `O${tag}`, nameKana: "おー" });
  ids.school = (await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" })).id;
  ids.sibling = (await createSchool(db(), { academyId: academy.id, name: `T${tag}`, nameKana: "てぃー" })).id;
  ids.foreign = (await createSchool(db(), { academyId: other.id, name: `F${tag}`, nameKana: "えふ" })).id;
  const user = async (role: "student" | "teacher" | "manager", extra: object) =>
    (await createUser(db(), { role, email: `${role}-${uniqueTag()}@access.example`, name: `${role}`, ...extra })).id;
  ids.student = await user("student", { schoolId: ids.school, student: { grade: 1, className: "1", number: 1 } });
  ids.target = await user("student", { schoolId: ids.school, student: { grade: 1, className: "1", number: 2 } });
  ids.teacher = await user("teacher", { schoolId: ids.school });
  ids.targetTeacher = await user("teacher", { schoolId: ids.school });
  ids.otherTeacher = await user("teacher", { schoolId: ids.sibling });
  ids.noSchoolTeacher = await user("teacher", { schoolId: null });
  ids.manager = await user("manager", { academyId: academy.id });
  ids.otherManager = await user("manager", { academyId: other.id });
  await createSigninCode(db(), ids.target, TEST_SIGNIN_CODE_KEY);
  await syncTemplates(db(), await readTemplateFiles());
  ids.activity = (await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: ids.school, status: "archived" })).id;
});
afterAll(async () => {
  await db().$disconnect();
});

describe("student actions: teachers of the student's own school only", () => {
  const target = () => ({ studentIds: [ids.target] });
  const calls: [string, () => Promise<ActionResult<unknown>>][] = [
    ["add", () => studentActions.addStudentAction({ name: "侵入", grade: 1, className: "1", number: 30 })],
    ["update", () => studentActions.updateStudentAction({ studentId: ids.target, name: "改ざん", grade: 1, className: "1", number: 2 })],
    ["delete", () => studentActions.deleteStudentsAction(target())],
    ["disable", () => studentActions.setDisabledAction({ ...target(), disabled: true })],
    ["reset password", () => studentActions.resetPasswordAction({ studentId: ids.target })],
    ["new codes", () => studentActions.issueCodesAction(target())],
    ["revoke codes", () => studentActions.revokeCodesAction(target())],
    ["read code", () => studentActions.readCodeAction({ studentId: ids.target })],
    ["code expiry", () => studentActions.setCodeExpiryAction({ ...target(), expiresOn: "2020-01-01" })],
    ["set group", () => studentActions.setGroupAction({ ...target(), group: "Z" })],
    ["balance", () => studentActions.balanceGroupsAction({ studentIds: [ids.target, ids.student], groups: ["X", "Y"] })],
    ["import", () => studentActions.importStudentsFromForm(csv())],
  ];

  it.each(calls)("%s: refused when signed out, for a student, a manager and a teacher without a school; nothing changes", async (_name, call) => {
    const before = await snapshot();
    expect(await as("nobody", call)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    expect(await as("student", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await as("manager", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await as("otherManager", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await as("noSchoolTeacher", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await snapshot()).toEqual(before);
  });

  it.each(calls.filter(([name]) => name !== "add" && name !== "import"))(
    "%s: a teacher of another school of the same academy gets 'not found' and changes nothing",
    async (_name, call) => {
      const before = await snapshot();
      expect(await as("otherTeacher", call)).toMatchObject({ ok: false, code: "NOT_FOUND" });
      expect(await snapshot()).toEqual(before);
    },
  );

  it("a teacher of the school may (control: the matrix above is not refusing everything)", async () => {
    expect(await as("teacher", () => studentActions.setGroupAction({ studentIds: [ids.target], group: "B" }))).toEqual({ ok: true, data: { count: 1 } });
  });
});

describe("school actions: managers of the school's own academy only", () => {
  const calls: [string, () => Promise<ActionResult<unknown>>][] = [
    ["rename", () => schoolActions.renameSchoolAction({ schoolId: ids.school, name: "乗っ取り", nameKana: "" })],
    ["add teacher", () => schoolActions.addTeacherAction({ schoolId: ids.school, name: "侵入", nameKana: "", email: `intruder-${uniqueTag()}@x.example` })],
    ["disable teacher", () => schoolActions.setTeacherDisabledAction({ teacherId: ids.targetTeacher, disabled: true })],
    ["move teacher", () => schoolActions.moveTeacherAction({ teacherId: ids.targetTeacher, schoolId: ids.sibling })],
  ];

  it.each([...calls, ["create", () => schoolActions.createSchoolAction({ name: "新校", nameKana: "" })] as (typeof calls)[number]])(
    "%s: refused when signed out, for a student and for teachers; nothing changes",
    async (_name, call) => {
      const before = await snapshot();
      const schools = await db().school.count();
      expect(await as("nobody", call)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
      for (const who of ["student", "teacher", "noSchoolTeacher"] as const) expect(await as(who, call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
      expect(await snapshot()).toEqual(before);
      expect(await db().school.count()).toBe(schools);
    },
  );

  it.each(calls)("%s: another academy's manager gets 'not found' and changes nothing", async (_name, call) => {
    const before = await snapshot();
    expect(await as("otherManager", call)).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await snapshot()).toEqual(before);
  });

  it("a manager cannot move a teacher into another academy's school", async () => {
    const before = await snapshot();
    expect(await as("manager", () => schoolActions.moveTeacherAction({ teacherId: ids.targetTeacher, schoolId: ids.foreign }))).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await snapshot()).toEqual(before);
  });
});

describe("activity actions: staff of the activity's school only", () => {
  const ref = () => ({ schoolId: ids.school, activityId: ids.activity });
  const calls: [string, () => Promise<ActionResult<unknown>>][] = [
    ["copy template", () => activityActions.copyTemplateAction({ schoolId: ids.school, templateId: "science-dissolve" })],
    ["change mode", () => activityActions.changeModeAction({ ...ref(), mode: "guide" })],
    ["archive", () => activityActions.archiveAction(ref())],
    ["restore", () => activityActions.restoreAction(ref())],
    ["delete", () => activityActions.deleteAction(ref())],
    ["save order", () => activityActions.saveOrderAction({ ...ref(), version: 1, title: "x", order: [ids.activity], groupOrders: {} })],
  ];

  it.each(calls)("%s: refused when signed out, for a student, another school's teacher and another academy's manager", async (_name, call) => {
    const before = await snapshot();
    expect(await as("nobody", call)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    expect(await as("student", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await as("otherTeacher", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await as("noSchoolTeacher", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await as("otherManager", call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await snapshot()).toEqual(before);
  });
});

describe("guide session and results actions: staff of the activity's school only", () => {
  const ref = () => ({ schoolId: ids.school, activityId: ids.activity });
  const calls: [string, () => Promise<ActionResult<unknown>>][] = [
    ["start", () => liveActions.startSessionAction(ref())],
    ["go to scene", () => liveActions.goToSceneAction({ ...ref(), sceneId: ids.activity })],
    ["flags", () => liveActions.setFlagsAction({ ...ref(), showResults: true })],
    ["lock", () => liveActions.setLockedAction({ ...ref(), locked: true })],
    ["end", () => liveActions.endSessionAction(ref())],
    ["cell reasons", () => cellReasonsAction({ ...ref(), sceneId: ids.activity, first: "a", second: "b", filter: {} })],
  ];

  it.each(calls)("%s: refused when signed out, for a student, another school's teacher and another academy's manager", async (_name, call) => {
    const before = await snapshot();
    const sessions = await db().guideSession.count({ where: { activityId: ids.activity } });
    expect(await as("nobody", call)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
    for (const who of ["student", "otherTeacher", "noSchoolTeacher", "otherManager"] as const) expect(await as(who, call)).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await snapshot()).toEqual(before);
    expect(await db().guideSession.count({ where: { activityId: ids.activity } })).toBe(sessions);
  });
});
