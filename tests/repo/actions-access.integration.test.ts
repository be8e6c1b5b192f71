/**
 * The access matrix of every server action, called the way the browser calls
 * them (the real wrapper, zod, role and scope checks, real PostgreSQL). Only
 * the request is made up: its Cookie header carries a session token made
 * the way next-auth makes it (read by the real getActor), and Next's cache
 * revalidation (which needs a request) is a no-op.
 *
 * Every row makes one valid call (tests/support/actions-access-rows.ts) as
 * every actor: the wrong ones are refused with the exact code and change
 * nothing, then the rightful one makes the same call, gets `ok: true`, and the
 * database shows the change (the positive control: no refusal here can come
 * from bad input or a broken action). Each test has fresh rows to act on.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { db } from "@/platform/db";
import type { ActionResult } from "@/platform/errors";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../prisma/seed/factories";
import { saveOwnLanguageAction } from "@/platform/i18n/actions";
import { applyRolloverAction } from "@/features/rostering/server/rollover-actions";
import * as liveActions from "@/features/play/server/actions";
import { liveFeedbackAction } from "@/features/play/server/feedback-actions";
import { endDeviceSessionAction, endOtherDeviceSessionsAction } from "@/platform/auth/device-actions";
import { openSession } from "@/platform/auth/session-version-commands";
import * as schoolActions from "@/features/people/server/school-actions";
import * as ltiActions from "@/features/lti/server/actions";
import * as factorActions from "@/platform/auth/second-factor-actions";
import * as passkeyActions from "@/platform/auth/passkey-actions";
import { totpCode } from "@/platform/auth/totp";
import { session, sessionCookieOf } from "../support/next-headers-fake";
import {
  ACTIVITY_ROWS,
  LIBRARY_ROWS,
  liveRows,
  keyedChoice,
  makeFx,
  type Row,
  SCHOOL_ROWS,
  STUDENT_ROWS,
  TEACHER_ONLY_ROWS,
} from "../support/actions-access-rows";

type Who = "nobody" | "student" | "teacher" | "otherTeacher" | "noSchoolTeacher" | "manager" | "otherManager";
const ids = {} as Record<Exclude<Who, "nobody">, string> & { school: string; sibling: string; foreign: string };

const roles: Record<Exclude<Who, "nobody">, string> = {
  student: "student",
  teacher: "teacher",
  otherTeacher: "teacher",
  noSchoolTeacher: "teacher",
  manager: "manager",
  otherManager: "manager",
};
async function as<T>(who: Who, call: () => Promise<ActionResult<T>>) {
  session.cookie = who === "nobody" ? "" : await sessionCookieOf(ids[who], roles[who]);
  return call();
}

/** Everything a refused call must leave untouched. */
async function snapshot() {
  const schools = [ids.school, ids.sibling, ids.foreign];
  const [users, details, codes, schoolRows, activities, sessions, library, academyRows] = await Promise.all([
    db().user.findMany({
      where: { OR: [{ schoolId: { in: schools } }, { id: { in: [ids.manager, ids.otherManager] } }] },
      orderBy: { id: "asc" },
      omit: { lastActiveAt: true },
    }), // the actor's own last use is recorded
    db().studentDetail.findMany({ where: { user: { schoolId: { in: schools } } }, orderBy: { userId: "asc" } }),
    db().signinCode.findMany({ where: { user: { schoolId: { in: schools } } }, orderBy: { id: "asc" } }),
    db().school.findMany({
      where: { academyId: { in: [academies.academy, academies.otherAcademy] } },
      orderBy: { id: "asc" },
    }),
    db().activity.findMany({ where: { schoolId: { in: schools } }, orderBy: { id: "asc" } }),
    db().guideSession.findMany({ where: { activity: { schoolId: { in: schools } } }, orderBy: { id: "asc" } }),
    db().libraryEntry.findMany({
      where: { academyId: { in: [academies.academy, academies.otherAcademy] } },
      orderBy: { id: "asc" },
    }),
    db().academy.findMany({
      where: { id: { in: [academies.academy, academies.otherAcademy] } },
      orderBy: { id: "asc" },
    }),
  ]);
  return { users, details, codes, schools: schoolRows, activities, sessions, library, academies: academyRows };
}

let academies = { academy: "", otherAcademy: "" };
beforeAll(async () => {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `M${tag}`, nameKana: "えむ" });
  const other = await createAcademy(db(), { name: `O${tag}`, nameKana: "おー" });
  academies = { academy: academy.id, otherAcademy: other.id };
  ids.school = (await createSchool(db(), { academyId: academy.id, name: `S${tag}`, nameKana: "えす" })).id;
  ids.sibling = (await createSchool(db(), { academyId: academy.id, name: `T${tag}`, nameKana: "てぃー" })).id;
  ids.foreign = (await createSchool(db(), { academyId: other.id, name: `F${tag}`, nameKana: "えふ" })).id;
  const user = async (role: "student" | "teacher" | "manager", extra: object) =>
    (await createUser(db(), { role, email: `${role}-${uniqueTag()}@access.example`, name: `${role}`, ...extra })).id;
  ids.student = await user("student", { schoolId: ids.school, student: { grade: 1, className: "1", number: 1 } });
  ids.teacher = await user("teacher", { schoolId: ids.school });
  ids.otherTeacher = await user("teacher", { schoolId: ids.sibling });
  ids.noSchoolTeacher = await user("teacher", { schoolId: null });
  ids.manager = await user("manager", { academyId: academy.id });
  ids.otherManager = await user("manager", { academyId: other.id });
  await syncTemplates(db(), await readTemplateFiles());
});
afterAll(async () => {
  await db().$disconnect();
});
const fx = (row: Row) =>
  makeFx(
    { school: ids.school, sibling: ids.sibling, foreign: ids.foreign },
    row.activity ?? { status: "active", mode: "self" },
  );

/**
 * The refusals (each with its exact code, nothing changed), then the positive
 * control: `rightful` makes the same call and the row's effect shows.
 */
async function check(row: Row, refusals: [Who, string, string?][], rightful: Who, rightfulSchool?: "school") {
  const f = await fx(row);
  await row.prepare?.(f);
  const before = await snapshot();
  for (const [who, code, schoolId] of refusals) {
    expect(
      await as(who, () => row.call(f, schoolId === "school" ? f.school : undefined)),
      `${row.name} as ${who}`,
    ).toMatchObject({ ok: false, code });
  }
  expect(await snapshot()).toEqual(before);
  const result = await as(rightful, () => row.call(f, rightfulSchool ? f.school : undefined));
  expect(result, `${row.name} as the rightful ${rightful}`).toMatchObject({ ok: true });
  await row.effect(f, (result as { data: unknown }).data);
  return f;
}

const NOT_STAFF: [Who, string][] = [
  ["nobody", "UNAUTHENTICATED"],
  ["student", "FORBIDDEN"],
  ["noSchoolTeacher", "FORBIDDEN"],
];
const rows = <R extends Row>(list: R[]) => list.map((r) => [r.name, r] as [string, R]);

describe("student actions: teachers of the student's own school only", () => {
  it.each(rows(STUDENT_ROWS))(
    "%s: refused when signed out, for a student, managers, a teacher without a school and (for named students) another school's teacher; the school's teacher may",
    async (_name, row) => {
      const named = row.name !== "add" && row.name !== "import";
      await check(
        row,
        [
          ...NOT_STAFF,
          ["manager", "FORBIDDEN"],
          ["otherManager", "FORBIDDEN"],
          ...(named ? [["otherTeacher", "NOT_FOUND"] as [Who, string]] : []),
        ],
        "teacher",
      );
    },
  );
});

describe("school actions: managers of the school's own academy only", () => {
  const create: Row = {
    name: "create",
    call: (f) => schoolActions.createSchoolAction({ name: `新校${f.target.slice(0, 8)}`, nameKana: "" }),
    effect: async (f) =>
      expect(
        await db().school.findFirst({ where: { name: `新校${f.target.slice(0, 8)}` }, select: { academyId: true } }),
      ).toEqual({ academyId: academies.academy }),
  };
  const tenant = randomUUID();
  const entraTenant: Row = {
    name: "microsoft tenant",
    call: () => schoolActions.setEntraTenantAction({ tenantId: tenant.toUpperCase() }),
    effect: async () =>
      expect(
        await db().academy.findUnique({ where: { id: academies.academy }, select: { entraTenantId: true } }),
      ).toEqual({ entraTenantId: tenant }),
  };
  const slug = `b-${tenant.slice(0, 8)}`;
  const provider = () =>
    db().academyOidcProvider.findUnique({ where: { academyId: academies.academy }, select: { slug: true } });
  const oidcProvider: Row = {
    name: "academy provider",
    call: () =>
      schoolActions.setOidcProviderAction({
        ...{ slug, displayName: "教育委員会ID", issuer: "https://id.board.example", clientId: "manabiya" },
        ...{ clientSecret: "s3cret", identityClaim: "sub", allowedRoles: ["student"] },
      }),
    effect: async () => expect(await provider()).toEqual({ slug }),
  };
  const removeProvider: Row = {
    name: "academy provider removed",
    call: () => schoolActions.removeOidcProviderAction({}),
    prepare: async () => {
      await db().academyOidcProvider.upsert({
        where: { academyId: academies.academy },
        create: {
          ...{ academyId: academies.academy, slug, displayName: "x", issuer: "https://id.board.example" },
          ...{ clientId: "x", clientSecretSealed: "v1.x.x.x", identityClaim: "sub", allowedRoles: ["student"] },
        },
        update: {},
      });
    },
    effect: async () => expect(await provider()).toBeNull(),
  };
  const mfaPolicy: Row = {
    name: "second-factor policy",
    call: () => schoolActions.setSecondFactorPolicyAction({ require: "on", graceUntil: "2099-03-31" }),
    effect: async () =>
      expect(
        await db().academy.findUnique({
          where: { id: academies.academy },
          select: { requireSecondFactor: true, secondFactorGraceUntil: true },
        }),
      ).toEqual({ requireSecondFactor: true, secondFactorGraceUntil: new Date("2099-03-31T15:00:00Z") }),
  };
  const ltiIssuer = `https://portal-${tenant.slice(0, 8)}.example`;
  const ltiPlatform = () =>
    db().ltiPlatform.findUnique({ where: { academyId: academies.academy }, select: { issuer: true } });
  const ltiFields = {
    ...{ issuer: ltiIssuer, clientId: "manabiya", deploymentIds: "dep-1, dep-2" },
    ...{ authLoginUrl: `${ltiIssuer}/auth`, tokenUrl: `${ltiIssuer}/token`, jwksUrl: `${ltiIssuer}/jwks` },
  };
  const setLti: Row = {
    name: "LTI platform",
    call: () => ltiActions.setLtiPlatformAction(ltiFields),
    effect: async () => expect(await ltiPlatform()).toEqual({ issuer: ltiIssuer }),
  };
  const removeLti: Row = {
    name: "LTI platform removed",
    call: () => ltiActions.removeLtiPlatformAction({}),
    prepare: async () => {
      await db().ltiPlatform.upsert({
        where: { academyId: academies.academy },
        create: { academyId: academies.academy, ...ltiFields, deploymentIds: ["dep-1"] },
        update: {},
      });
    },
    effect: async () => expect(await ltiPlatform()).toBeNull(),
  };
  const lrs = () => db().academyLrs.findUnique({ where: { academyId: academies.academy }, select: { endpoint: true } });
  const lrsEndpoint = `https://lrs-${tenant.slice(0, 8)}.example/xapi`;
  const setLrsRow: Row = {
    name: "LRS",
    call: () => ltiActions.setLrsAction({ endpoint: lrsEndpoint, key: "k", secret: "s", includeNames: "on" }),
    effect: async () => expect(await lrs()).toEqual({ endpoint: lrsEndpoint }),
  };
  const removeLrsRow: Row = {
    name: "LRS removed",
    call: () => ltiActions.removeLrsAction({}),
    prepare: async () => {
      await db().academyLrs.upsert({
        where: { academyId: academies.academy },
        create: { academyId: academies.academy, endpoint: lrsEndpoint, credentialsSealed: "v1.x.y.z" },
        update: {},
      });
    },
    effect: async () => expect(await lrs()).toBeNull(),
  };
  const academyWide = [
    ...[create, entraTenant, oidcProvider, removeProvider, mfaPolicy, setLti, removeLti],
    ...[setLrsRow, removeLrsRow],
  ];
  it.each(rows([...SCHOOL_ROWS, ...academyWide]))(
    "%s: refused when signed out, for a student, for teachers and (for a named school or teacher) another academy's manager; the academy's manager may",
    async (_name, row) => {
      // creating a school and binding the tenant name no school: another academy's manager acts on their own
      const named = !academyWide.includes(row);
      await check(
        row,
        [...NOT_STAFF, ["teacher", "FORBIDDEN"], ...(named ? [["otherManager", "NOT_FOUND"] as [Who, string]] : [])],
        "manager",
      );
    },
  );

  it("delete school: refused when signed out, for a student, for teachers and another academy's manager; a school with people is refused; the academy's manager may delete an empty one", async () => {
    const empty = (
      await createSchool(db(), { academyId: academies.academy, name: `空${uniqueTag()}`, nameKana: "から" })
    ).id;
    const before = await snapshot();
    for (const [who, code] of [...NOT_STAFF, ["teacher", "FORBIDDEN"], ["otherManager", "NOT_FOUND"]] as [
      Who,
      string,
    ][]) {
      expect(await as(who, () => schoolActions.deleteSchoolAction({ schoolId: empty })), `as ${who}`).toMatchObject({
        ok: false,
        code,
      });
    }
    expect(await as("manager", () => schoolActions.deleteSchoolAction({ schoolId: ids.school }))).toMatchObject({
      ok: false,
      code: "CONFLICT",
    });
    expect(await snapshot()).toEqual(before);
    expect(await as("manager", () => schoolActions.deleteSchoolAction({ schoolId: empty }))).toEqual({
      ok: true,
      data: null,
    });
    expect(await db().school.findUnique({ where: { id: empty } })).toBeNull();
  });

  it("year-end rollover: refused when signed out, for a student, for teachers (even of the school) and another academy's manager; the academy's manager may, once", async () => {
    // a school of its own: the rollover moves every student and archives every activity of the school
    const school = (
      await createSchool(db(), { academyId: academies.academy, name: `年${uniqueTag()}`, nameKana: "ねん" })
    ).id;
    const pupil = (
      await createUser(db(), {
        role: "student",
        email: `ro-${uniqueTag()}@access.example`,
        schoolId: school,
        student: { grade: 1, className: "1", number: 1 },
      })
    ).id;
    const { currentYear } = await db().school.findUniqueOrThrow({
      where: { id: school },
      select: { currentYear: true },
    });
    const input = { schoolId: school, expectedYear: currentYear, topGrade: 3, classMoves: [] };
    const state = () =>
      Promise.all([
        db().school.findUnique({ where: { id: school } }),
        db().studentDetail.findUnique({ where: { userId: pupil } }),
      ]);
    const before = await state();
    for (const [who, code] of [
      ...NOT_STAFF,
      ["teacher", "FORBIDDEN"],
      ["otherTeacher", "FORBIDDEN"],
      ["otherManager", "FORBIDDEN"],
    ] as [Who, string][]) {
      expect(await as(who, () => applyRolloverAction(input)), `as ${who}`).toMatchObject({ ok: false, code });
    }
    expect(await state()).toEqual(before);
    expect(await as("manager", () => applyRolloverAction(input))).toMatchObject({
      ok: true,
      data: { year: currentYear + 1, promoted: 1 },
    });
    expect(await db().studentDetail.findUnique({ where: { userId: pupil }, select: { grade: true } })).toEqual({
      grade: 2,
    });
    expect(await as("manager", () => applyRolloverAction(input))).toMatchObject({ ok: false, code: "CONFLICT" });
  });

  it("a manager cannot move a teacher into another academy's school; into the own academy's other school they may", async () => {
    const row = SCHOOL_ROWS.find((r) => r.name === "move teacher")!;
    const f = await fx(row);
    const before = await snapshot();
    expect(
      await as("manager", () => schoolActions.moveTeacherAction({ teacherId: f.targetTeacher, schoolId: f.foreign })),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await snapshot()).toEqual(before);
    expect(await as("manager", () => row.call(f))).toMatchObject({ ok: true });
    await row.effect(f, null);
  });
});

describe("activity actions: staff of the activity's school only", () => {
  it.each(rows(ACTIVITY_ROWS))(
    "%s: refused when signed out, for a student, another school's teacher (naming this school: forbidden; its own: not found) and another academy's manager; the school's teacher may",
    async (_name, row) => {
      const copy = row.name === "copy template" || row.name === "import activity" || row.name === "create blank";
      const managers: [Who, string, string?][] = TEACHER_ONLY_ROWS.includes(row.name)
        ? [["manager", "FORBIDDEN", "school"]]
        : [];
      await check(
        row,
        [
          ...NOT_STAFF,
          ["otherTeacher", "FORBIDDEN", "school"],
          ...(copy ? [] : [["otherTeacher", "NOT_FOUND"] as [Who, string]]),
          ["otherManager", "FORBIDDEN", "school"],
          ...managers,
        ],
        "teacher",
      );
    },
  );

  it.each(rows(ACTIVITY_ROWS.filter((r) => !TEACHER_ONLY_ROWS.includes(r.name))))(
    "%s: the academy's manager naming the school may",
    async (_name, row) => {
      await check(row, [], "manager", "school");
    },
  );
});

describe("library actions: the academy's managers publish, retag and withdraw; staff of its schools copy", () => {
  const MANAGER_ROWS = LIBRARY_ROWS.filter((r) => r.name !== "copy entry");
  it.each(rows(MANAGER_ROWS))(
    "%s: refused when signed out, for a student, for teachers (even of the school) and another academy's manager; the academy's manager may",
    async (_name, row) => {
      const byId = row.name !== "publish";
      await check(
        row,
        [
          ...NOT_STAFF,
          ["teacher", "FORBIDDEN"],
          ["otherTeacher", "FORBIDDEN"],
          ["otherManager", byId ? "NOT_FOUND" : "FORBIDDEN"],
        ],
        "manager",
      );
    },
  );

  const copy = LIBRARY_ROWS.find((r) => r.name === "copy entry")!;
  it("copy entry: refused when signed out, for a student, a teacher naming another school and another academy's manager; the school's teacher may", async () => {
    await check(
      copy,
      [...NOT_STAFF, ["otherTeacher", "FORBIDDEN", "school"], ["otherManager", "FORBIDDEN", "school"]],
      "teacher",
    );
  });
  it("copy entry: the academy's manager naming the school may", async () => {
    await check(copy, [], "manager", "school");
  });
});

describe("guide session and results actions: staff of the activity's school only", () => {
  const LIVE = liveRows((call) => as("teacher", call));
  it.each(rows(LIVE))(
    "%s: refused when signed out, for a student, another school's teacher (naming this school: forbidden; its own: not found) and another academy's manager; the school's teacher may",
    async (_name, row) => {
      // a session action on another school's activity meets no running session in the actor's school: CONFLICT
      // (notRunning), exactly as for an id that exists nowhere (next test); reading reasons finds no rows: ok, empty;
      // starting it, pacing it and reading a student's answer find no activity or student there: NOT_FOUND
      const notFound: [Who, string][] =
        row.name === "cell reasons"
          ? []
          : [["otherTeacher", ["start", "student answer", "pacing"].includes(row.name) ? "NOT_FOUND" : "CONFLICT"]];
      await check(
        row,
        [...NOT_STAFF, ["otherTeacher", "FORBIDDEN", "school"], ...notFound, ["otherManager", "FORBIDDEN", "school"]],
        "teacher",
      );
    },
  );

  it.each(rows(LIVE))(
    "%s: another school's running session answers as an activity that exists nowhere",
    async (_name, row) => {
      const f = await fx(row);
      await row.prepare?.(f);
      const before = await snapshot();
      const theirs = await as("otherTeacher", () => row.call(f));
      const nowhere = await as("otherTeacher", () => row.call({ ...f, activity: crypto.randomUUID() }));
      expect(theirs).toEqual(nowhere);
      expect(theirs.ok && row.name !== "cell reasons").toBe(false);
      if (theirs.ok) expect(theirs.data).toEqual([]);
      expect(await snapshot()).toEqual(before);
    },
  );

  it.each(rows(LIVE))("%s: the academy's manager naming the school may", async (_name, row) => {
    await check(row, [], "manager", "school");
  });
});

it("own display language: refused signed out and for a value that is not one of the three; each person changes only their own record", async () => {
  const languages = () =>
    db().user.findMany({
      where: { id: { in: [ids.student, ids.teacher] } },
      orderBy: { id: "asc" },
      select: { id: true, displayLanguage: true },
    });
  const before = await languages();
  expect(await as("nobody", () => saveOwnLanguageAction({ language: "ja-kana" }))).toMatchObject({
    ok: false,
    code: "UNAUTHENTICATED",
  });
  expect(await as("student", () => saveOwnLanguageAction({ language: "en" as never }))).toMatchObject({
    ok: false,
    code: "VALIDATION",
  });
  expect(await languages()).toEqual(before);
  expect(await as("student", () => saveOwnLanguageAction({ language: "ja-kana" }))).toMatchObject({ ok: true });
  const after = await languages();
  expect(after.find((u) => u.id === ids.student)?.displayLanguage).toBe("ja-kana");
  expect(after.find((u) => u.id === ids.teacher)).toEqual(before.find((u) => u.id === ids.teacher));
});

it("a student's live feedback: refused signed out and for staff; nothing before the teacher shows the answer, nothing for another scene; then the key of the scene shown", async () => {
  const f = await makeFx(
    { school: ids.school, sibling: ids.sibling, foreign: ids.foreign },
    { status: "active", mode: "guide" },
  );
  const choice = await keyedChoice(f);
  const feedback = (sceneId = choice) => liveFeedbackAction({ activityId: f.activity, sceneId });
  const teacher = (call: () => Promise<ActionResult<unknown>>) => as("teacher", call);
  expect(await as("nobody", feedback)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
  expect(await as("teacher", feedback)).toMatchObject({ ok: false, code: "FORBIDDEN" });
  expect(await as("student", feedback)).toMatchObject({ ok: false, code: "NOT_FOUND" });
  expect(await teacher(() => liveActions.startSessionAction({ activityId: f.activity }))).toMatchObject({ ok: true });
  const go = () => liveActions.goToSceneAction({ activityId: f.activity, sceneId: choice });
  expect(await teacher(go)).toMatchObject({ ok: true });
  expect(await as("student", feedback)).toMatchObject({ ok: false, code: "NOT_FOUND" });
  const reveal = () => liveActions.setRevealedAction({ activityId: f.activity, revealed: true });
  expect(await teacher(reveal)).toMatchObject({ ok: true });
  expect(await as("student", () => feedback(f.scenes[0]))).toMatchObject({ ok: false, code: "NOT_FOUND" });
  expect(await as("teacher", feedback)).toMatchObject({ ok: false, code: "FORBIDDEN" });
  expect(await as("student", feedback)).toMatchObject({
    ok: true,
    data: { sceneId: choice, correct: ["clear"], verdict: null },
  });
});

it("a game's controls: refused for a student (starting a game, showing the board), the teacher's are theirs", async () => {
  const f = await makeFx(
    { school: ids.school, sibling: ids.sibling, foreign: ids.foreign },
    { status: "active", mode: "guide" },
  );
  const teacher = (call: () => Promise<ActionResult<unknown>>) => as("teacher", call);
  const start = () => liveActions.startSessionAction({ activityId: f.activity, game: { teams: false, names: true } });
  expect(await as("student", start)).toMatchObject({ ok: false, code: "FORBIDDEN" });
  const started = await teacher(start);
  if (!started.ok) throw new Error(started.code);
  // a student cannot show the board (nor start or change a game)
  const show = () => liveActions.setGameViewAction({ activityId: f.activity, board: "ranking" });
  expect(await as("nobody", show)).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
  expect(await as("student", show)).toMatchObject({ ok: false, code: "FORBIDDEN" });
  expect(await as("student", start)).toMatchObject({ ok: false, code: "FORBIDDEN" });
  expect(await teacher(show)).toMatchObject({ ok: true });
});

it("own devices: refused signed out and for a student; another person's device is not found and stays open; a teacher signs out their own other devices, never this one", async () => {
  const client = { ip: "198.51.100.30", userAgent: null };
  const [here, laptop, tablet] = [
    await openSession(ids.teacher, "password", client),
    await openSession(ids.teacher, "password", client),
    await openSession(ids.teacher, "password", client),
  ];
  const othersDevice = await openSession(ids.otherTeacher, "password", client);
  const open = async () => (await db().deviceSession.findMany({ where: { endedAt: null } })).map((d) => d.id);
  const asTeacher = async <T>(call: () => Promise<ActionResult<T>>) => {
    session.cookie = await sessionCookieOf(ids.teacher, "teacher", here.sv, here.sid!);
    return call();
  };
  const end = (sessionId: string) => () => endDeviceSessionAction({ sessionId });
  const before = await open();
  expect(await as("nobody", end(laptop.sid!))).toMatchObject({ ok: false, code: "UNAUTHENTICATED" });
  expect(await as("student", end(laptop.sid!))).toMatchObject({ ok: false, code: "FORBIDDEN" });
  expect(await as("student", () => endOtherDeviceSessionsAction({}))).toMatchObject({ ok: false, code: "FORBIDDEN" });
  expect(await asTeacher(end(othersDevice.sid!))).toMatchObject({ ok: false, code: "NOT_FOUND" });
  expect(await asTeacher(end(here.sid!))).toMatchObject({ ok: false, code: "VALIDATION" });
  expect(await asTeacher(end("not-a-uuid"))).toMatchObject({ ok: false, code: "VALIDATION" });
  expect(await open()).toEqual(before);
  expect(await asTeacher(end(laptop.sid!))).toMatchObject({ ok: true, data: { ended: 1 } });
  expect(await open()).not.toContain(laptop.sid);
  expect(await asTeacher(() => endOtherDeviceSessionsAction({}))).toMatchObject({ ok: true, data: { ended: 1 } });
  const after = await open();
  expect(after).not.toContain(tablet.sid);
  expect(after).toEqual(expect.arrayContaining([here.sid, othersDevice.sid]));
  expect(
    await db().auditLog.count({
      where: { actorId: ids.teacher, action: "signout.device", targetId: { in: [laptop.sid!, tablet.sid!] } },
    }),
  ).toBe(2);
});

it("second factor: refused signed out, for a student and for a sign-in waiting for its factor; a teacher sets up an app, renews the recovery codes and removes it; only a waiting sign-in enrols or verifies there", async () => {
  const client = { ip: "198.51.100.31", userAgent: null };
  const teacher = (
    await createUser(db(), { role: "teacher", email: `mfa-${uniqueTag()}@access.example`, schoolId: ids.school })
  ).id;
  const signedIn = await openSession(teacher, "password", client);
  const waiting = await openSession(teacher, "password", client, true);
  const cookie = (s: { sv: number; sid: string | null }) => sessionCookieOf(teacher, "teacher", s.sv, s.sid!);
  const asTeacher = async <T>(call: () => Promise<T>, s = signedIn) => {
    session.cookie = await cookie(s);
    return call();
  };
  const factor = () => db().totpFactor.findUnique({ where: { userId: teacher } });
  const policy = (requireSecondFactor: boolean) =>
    db().academy.update({ where: { id: academies.academy }, data: { requireSecondFactor } });
  await policy(false); // another test sets it
  for (const who of ["nobody", "student"] as const) {
    const code = who === "nobody" ? "UNAUTHENTICATED" : "FORBIDDEN";
    expect(await as(who, () => factorActions.startTotpEnrolmentAction({}))).toMatchObject({ ok: false, code });
    expect(await as(who, () => factorActions.confirmTotpEnrolmentAction({ code: "123456" }))).toMatchObject({
      ok: false,
      code,
    });
    expect(await as(who, () => factorActions.renewRecoveryCodesAction({}))).toMatchObject({ ok: false, code });
    expect(await as(who, () => factorActions.removeSecondFactorsAction({}))).toMatchObject({ ok: false, code });
    expect(await as(who, () => factorActions.startPendingEnrolmentAction())).toMatchObject({
      ok: false,
      code: "UNAUTHENTICATED",
    });
    expect(await as(who, () => factorActions.confirmPendingEnrolmentAction({ code: "1" }))).toMatchObject({
      ok: false,
      code: "UNAUTHENTICATED",
    });
    session.cookie = who === "nobody" ? "" : await sessionCookieOf(ids.student, "student");
    await expect(factorActions.verifySecondFactorAction({ error: null }, new FormData())).rejects.toThrow(
      /NEXT_REDIRECT/,
    );
  }
  // a signed-in device is not a waiting one, and a waiting one is not signed in
  expect(await asTeacher(() => factorActions.startPendingEnrolmentAction())).toMatchObject({
    ok: false,
    code: "UNAUTHENTICATED",
  });
  expect(await asTeacher(() => factorActions.startTotpEnrolmentAction({}), waiting)).toMatchObject({
    ok: false,
    code: "UNAUTHENTICATED",
  });
  expect(await asTeacher(() => factorActions.renewRecoveryCodesAction({}))).toMatchObject({
    ok: false,
    code: "NOT_FOUND",
  });
  expect(await asTeacher(() => factorActions.removeSecondFactorsAction({}))).toMatchObject({
    ok: false,
    code: "NOT_FOUND",
  });
  expect(await factor()).toBeNull();

  const started = await asTeacher(() => factorActions.startTotpEnrolmentAction({}));
  if (!started.ok) throw new Error(started.code);
  expect(await asTeacher(() => factorActions.confirmTotpEnrolmentAction({ code: "000000x" }))).toMatchObject({
    ok: false,
    code: "VALIDATION",
  });
  const confirmed = await asTeacher(() =>
    factorActions.confirmTotpEnrolmentAction({ code: totpCode(started.data.secret) }),
  );
  expect(confirmed).toMatchObject({ ok: true, data: { recoveryCodes: expect.any(Array) } });
  expect((await factor())?.confirmedAt).not.toBeNull();
  expect(await asTeacher(() => factorActions.startTotpEnrolmentAction({}))).toMatchObject({
    ok: false,
    code: "CONFLICT",
  });
  expect(await asTeacher(() => factorActions.startPendingEnrolmentAction(), waiting)).toMatchObject({
    ok: false,
    code: "CONFLICT",
  });
  const renewed = await asTeacher(() => factorActions.renewRecoveryCodesAction({}));
  expect(renewed).toMatchObject({ ok: true, data: { recoveryCodes: expect.any(Array) } });
  await expect(
    asTeacher(() => {
      const form = new FormData();
      form.set("code", renewed.ok ? renewed.data.recoveryCodes[0]! : "");
      return factorActions.verifySecondFactorAction({ error: null }, form);
    }, waiting),
  ).rejects.toThrow(/NEXT_REDIRECT/);
  expect(await db().deviceSession.findUnique({ where: { id: waiting.sid! } })).toMatchObject({
    secondFactorPending: false,
  });
  // the academy requires a second factor: it cannot be removed
  await policy(true);
  expect(await asTeacher(() => factorActions.removeSecondFactorsAction({}))).toMatchObject({
    ok: false,
    code: "FORBIDDEN",
  });
  await policy(false);
  expect(await asTeacher(() => factorActions.removeSecondFactorsAction({}))).toMatchObject({ ok: true });
  expect(await factor()).toBeNull();
  expect(await db().recoveryCode.count({ where: { userId: teacher } })).toBe(0);
  const changes = await db().auditLog.findMany({ where: { actorId: teacher, action: { startsWith: "factor." } } });
  expect(changes.map((c) => c.action).sort()).toEqual([
    "factor.recovery.renewed",
    "factor.totp.added",
    "factor.totp.removed",
  ]);
});

it("passkeys: refused signed out and for a student; a signed-in teacher's device starts and answers a registration, a waiting one starts and answers a sign-in, not the other way; another person's passkey is not removed", async () => {
  const client = { ip: "198.51.100.32", userAgent: null };
  const teacher = (
    await createUser(db(), { role: "teacher", email: `pk-${uniqueTag()}@access.example`, schoolId: ids.school })
  ).id;
  const signedIn = await openSession(teacher, "password", client);
  const waiting = await openSession(teacher, "password", client, true);
  const asTeacher = async <T>(call: () => Promise<T>, s = signedIn) => {
    session.cookie = await sessionCookieOf(teacher, "teacher", s.sv, s.sid!);
    return call();
  };
  const credential = { id: "AA", rawId: "AA", type: "public-key", clientExtensionResults: {} };
  const registration = {
    name: "PC",
    credential: { ...credential, response: { clientDataJSON: "AA", attestationObject: "AA" } },
  };
  const assertion = { ...credential, response: { clientDataJSON: "AA", authenticatorData: "AA", signature: "AA" } };
  const someId = "00000000-0000-4000-8000-000000000000";
  for (const who of ["nobody", "student"] as const) {
    const code = who === "nobody" ? "UNAUTHENTICATED" : "FORBIDDEN";
    expect(await as(who, () => passkeyActions.startPasskeyRegistrationAction({}))).toMatchObject({ ok: false, code });
    expect(await as(who, () => passkeyActions.finishPasskeyRegistrationAction(registration))).toMatchObject({
      ok: false,
      code,
    });
    expect(await as(who, () => passkeyActions.removePasskeyAction({ id: someId }))).toMatchObject({ ok: false, code });
    expect(await as(who, () => passkeyActions.startPasskeySigninAction())).toMatchObject({
      ok: false,
      code: "UNAUTHENTICATED",
    });
    expect(await as(who, () => passkeyActions.verifyPasskeySigninAction(assertion, null))).toMatchObject({
      ok: false,
      code: "UNAUTHENTICATED",
    });
  }
  // a waiting sign-in registers nothing; a signed-in device has no sign-in to confirm
  expect(await asTeacher(() => passkeyActions.startPasskeyRegistrationAction({}), waiting)).toMatchObject({
    ok: false,
    code: "UNAUTHENTICATED",
  });
  expect(await asTeacher(() => passkeyActions.startPasskeySigninAction())).toMatchObject({
    ok: false,
    code: "UNAUTHENTICATED",
  });
  const options = await asTeacher(() => passkeyActions.startPasskeyRegistrationAction({}));
  expect(options).toMatchObject({ ok: true, data: { challenge: expect.any(String), rp: { id: "localhost" } } });
  // a made-up answer: refused (and the challenge spent)
  expect(await asTeacher(() => passkeyActions.finishPasskeyRegistrationAction(registration))).toMatchObject({
    ok: false,
    code: "VALIDATION",
    fieldErrors: { passkey: ["passkeyRefused"] },
  });
  expect(await asTeacher(() => passkeyActions.finishPasskeyRegistrationAction(registration))).toMatchObject({
    ok: false,
    fieldErrors: { passkey: ["passkeyExpired"] },
  });
  expect(await asTeacher(() => passkeyActions.startPasskeySigninAction(), waiting)).toMatchObject({
    ok: false,
    code: "NOT_FOUND",
  });
  expect(await asTeacher(() => passkeyActions.verifyPasskeySigninAction(assertion, null), waiting)).toMatchObject({
    ok: false,
    fieldErrors: { passkey: ["passkeyExpired"] },
  });
  const others = await db().passkey.create({
    data: { userId: ids.teacher, credentialId: `c-${uniqueTag()}`, publicKey: Buffer.from("x"), name: "theirs" },
  });
  expect(await asTeacher(() => passkeyActions.removePasskeyAction({ id: others.id }))).toMatchObject({
    ok: false,
    code: "NOT_FOUND",
  });
  expect(await db().passkey.count({ where: { id: others.id } })).toBe(1);
  await db().passkey.delete({ where: { id: others.id } });
});

/** Server actions that are public by design (sign-in, sign-out, password reset): they take no school id. */
const PUBLIC_ACTIONS = [
  "signInWithPassword",
  "signInWithCode",
  "signOutAction",
  "signInWithProvider",
  "requestReset",
  "resetPassword",
];
/** Form adapters that call a row's action (copyTemplateFromForm → copy template, importActivityFromForm → import activity, importStudentsFromForm is the import row itself). */
const ADAPTERS = [
  "copyTemplateFromForm",
  "importActivityFromForm",
  "importStudentsAction",
  "publishActivityFromForm",
  "copyLibraryEntryFromForm",
  "setEntryTagsFromForm",
];

/** The server actions of the product's code (features and platform), by name. */
function serverActionNames(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "generated") out.push(...serverActionNames(full));
    else if (/\.tsx?$/.test(entry.name)) {
      const text = readFileSync(full, "utf8");
      if (!/^["']use server["']/m.test(text)) continue;
      for (const m of text.matchAll(/^export (?:const|async function) (\w+)/gm)) out.push(m[1]!);
    }
  }
  return out;
}

it("every server action has a row here (or is a public auth action or a form adapter of one)", () => {
  const covered = new Set([...PUBLIC_ACTIONS, ...ADAPTERS]);
  const called = new Set<string>();
  const source =
    readFileSync("tests/support/actions-access-rows.ts", "utf8") +
    readFileSync("tests/repo/actions-access.integration.test.ts", "utf8");
  for (const m of source.matchAll(/(?:Actions\.|\b)(\w+Action|importStudentsFromForm)\(/g)) called.add(m[1]!);
  const missing = ["features", "platform"]
    .flatMap((d) => serverActionNames(d))
    .filter((name) => !covered.has(name) && !called.has(name));
  expect(missing).toEqual([]);
});
