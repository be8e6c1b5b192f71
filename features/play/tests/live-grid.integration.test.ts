/**
 * Who is still working and several classes at once (docs/adr/0062-who-is-still-working.md,
 * docs/adr/0061-several-classes-at-once.md): the teacher's grid lists the students of the
 * session's class with their state on the current scene, and a session run for one class is, for a
 * student of another class, no session at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { liveGrid } from "@/features/play/server/grid-queries";
import { setPacing } from "@/features/play/server/pacing-commands";
import {
  endSession,
  goToScene,
  leavePresence,
  startSession,
  touchPresence,
} from "@/features/play/server/session-commands";
import { liveStateForStaff, liveStateForStudent } from "@/features/play/server/state-queries";
import { listRespondentActivities } from "@/features/play/server/answer-queries";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

const ids = {} as {
  school: string;
  other: string;
  teacher: string;
  foreignTeacher: string;
  activity: string;
  scenes: string[];
  a: string[];
  b: string;
  foreign: string;
};
const ctx = () => ({ schoolId: ids.school as AuthorizedSchoolId, actorId: ids.teacher });
const classA = { grade: 2, className: "1" };
const classB = { grade: 2, className: "2" };
const guideAnswer = (sceneId: string, choice = "clear") => ({
  activityId: ids.activity,
  sceneId,
  answer: { choice },
  clientRevision: 1,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "guide" as const,
});

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const student = async (key: string, schoolId: string, klass: { grade: number; className: string }, number: number) =>
    (
      await createUser(db(), {
        role: "student",
        email: `g${key}-${tag}@t.example`,
        schoolId,
        name: `生徒 ${key}`,
        nameKana: `せいと ${key}`,
        student: { ...klass, number },
      })
    ).id;
  // created out of 番号 order: the grid sorts them
  const a4 = await student("a4", school.id, classA, 4);
  const a1 = await student("a1", school.id, classA, 1);
  const a3 = await student("a3", school.id, classA, 3);
  const a2 = await student("a2", school.id, classA, 2);
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    activity: activity.id,
    a: [a1, a2, a3, a4],
    b: await student("b1", school.id, classB, 1),
    // the same class name in another school
    foreign: await student("f1", other.id, classA, 5),
    teacher: (await createUser(db(), { role: "teacher", email: `gt-${tag}@t.example`, schoolId: school.id })).id,
    foreignTeacher: (await createUser(db(), { role: "teacher", email: `gft-${tag}@t.example`, schoolId: other.id })).id,
    scenes: (
      await db().activityScene.findMany({
        where: { activityId: activity.id },
        orderBy: { position: "asc" },
        select: { id: true },
      })
    ).map((s) => s.id),
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("the live grid and sessions for one class", () => {
  it("the grid of a session run for one class: not joined, working, answered, offline, by 番号; other classes and schools never appear", async () => {
    const started = await startSession(ctx(), ids.activity, classA);
    expect(started).toMatchObject({ ok: true });
    const sessionId = started.ok ? started.data.sessionId : "";
    expect(
      await db().guideSession.findUniqueOrThrow({ where: { id: sessionId }, select: { grade: true, className: true } }),
    ).toEqual(classA);
    expect(await goToScene(ctx(), ids.activity, ids.scenes[2]!)).toEqual({ ok: true, data: null });
    const [a1, a2, a3] = ids.a as [string, string, string, string];
    await Promise.all([
      touchPresence(sessionId, a1),
      touchPresence(sessionId, a2),
      touchPresence(sessionId, a3),
      touchPresence(sessionId, ids.b),
      touchPresence(sessionId, ids.foreign),
    ]);
    expect(await saveAnswer(a2, guideAnswer(ids.scenes[2]!))).toMatchObject({ ok: true });
    await leavePresence(sessionId, a3);

    const grid = await liveGrid(ids.school, ids.activity);
    expect(grid).toMatchObject({ sessionId, sceneId: ids.scenes[2], klass: classA });
    expect(grid!.students.map((s) => [s.number, s.state, s.name?.base])).toEqual([
      [1, "working", "生徒 a1"],
      [2, "answered", "生徒 a2"],
      [3, "offline", "生徒 a3"],
      [4, "notJoined", "生徒 a4"],
    ]);
    expect(grid!.students.every((s) => s.grade === 2 && s.className === "1")).toBe(true);
    // the teacher's live state carries the grid and counts the class's answers only
    const staff = await liveStateForStaff(ids.activity, ids.school);
    expect(staff).toMatchObject({ answered: 1, classKey: "2:1" });
    expect(staff!.grid!.students).toHaveLength(4);
    // another school's scope reads nothing of it
    expect(await liveGrid(ids.other, ids.activity)).toBeNull();
  });

  it("a student of another class neither joins nor answers the session: it is no session for them", async () => {
    const [, , , a4] = ids.a as [string, string, string, string];
    expect(await liveStateForStudent(ids.activity, "2:1")).toMatchObject({
      status: "running",
      sceneId: ids.scenes[2],
      classKey: "2:1",
    });
    const other = await liveStateForStudent(ids.activity, "2:2");
    expect(other).toMatchObject({ status: "waiting", sessionId: null, sceneId: null, timer: null });
    // a student without a class set joins only whole-school sessions
    expect(await liveStateForStudent(ids.activity, null)).toMatchObject({ status: "waiting", sessionId: null });
    expect(await saveAnswer(ids.b, guideAnswer(ids.scenes[2]!))).toMatchObject({
      ok: false,
      reason: "sessionNotRunning",
    });
    expect(await saveAnswer(a4, guideAnswer(ids.scenes[2]!, "cloudy"))).toMatchObject({ ok: true });
    const homeOf = async (id: string) =>
      (await listRespondentActivities({ id, role: "student", schoolId: ids.school })).find(
        (a) => a.id === ids.activity,
      );
    expect(await homeOf(ids.b)).toMatchObject({ live: false });
    expect(await homeOf(a4)).toMatchObject({ live: true });
  });

  it("one teacher runs it in two classes in turn: the whole school waits for the class's end, a class nobody is in is refused, the views never mix", async () => {
    expect(await startSession(ctx(), ids.activity, null)).toMatchObject({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { session: ["otherClass"] },
    });
    // pressing start again for the same class keeps the running session
    const again = await startSession(ctx(), ids.activity, classA);
    expect(again).toMatchObject({ ok: true });
    expect(await startSession(ctx(), ids.activity, { grade: 2, className: "9" })).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { klass: ["unknownClass"] },
    });
    // a teacher of another school cannot start it for a class there
    expect(
      await startSession(
        { schoolId: ids.other as AuthorizedSchoolId, actorId: ids.foreignTeacher },
        ids.activity,
        classA,
      ),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });

    expect(await endSession(ctx(), ids.activity)).toEqual({ ok: true, data: null });
    const second = await startSession(ctx(), ids.activity, classB);
    expect(second).toMatchObject({ ok: true });
    expect(await goToScene(ctx(), ids.activity, ids.scenes[2]!)).toEqual({ ok: true, data: null });
    const grid = await liveGrid(ids.school, ids.activity);
    expect(grid!.students.map((s) => [s.className, s.number, s.state])).toEqual([["2", 1, "notJoined"]]);
    // class A's answers to the same scene are not class B's
    expect(await liveStateForStaff(ids.activity, ids.school)).toMatchObject({ answered: 0, classKey: "2:2" });
    const [a1] = ids.a as [string];
    expect(await saveAnswer(a1, guideAnswer(ids.scenes[2]!))).toMatchObject({ ok: false, reason: "sessionNotRunning" });
    expect(await saveAnswer(ids.b, guideAnswer(ids.scenes[2]!))).toMatchObject({ ok: true });
    expect(await liveStateForStaff(ids.activity, ids.school)).toMatchObject({ answered: 1 });
    // class A's own session has ended: they see it ended (not class B's, never waiting behind an older state)
    expect((await liveStateForStudent(ids.activity, "2:1"))!.status).toBe("ended");
    await endSession(ctx(), ids.activity);
  });

  it("pacing in self mode: a self answer to a scene not yet open is refused (notOpenYet); open ones and, once opened, the next are saved", async () => {
    await db().activity.update({ where: { id: ids.activity }, data: { mode: "self" } });
    expect(await setPacing(ctx(), ids.activity, 2)).toEqual({ ok: true, data: { open: 2 } });
    const self = (sceneId: string) => ({ ...guideAnswer(sceneId), mode: "self" as const, answer: { choice: "clear" } });
    const [, , , a4] = ids.a as [string, string, string, string];
    expect(await saveAnswer(a4, self(ids.scenes[2]!))).toMatchObject({ ok: false, status: 409, reason: "notOpenYet" });
    expect(await setPacing(ctx(), ids.activity, 3)).toEqual({ ok: true, data: { open: 3 } });
    expect(await saveAnswer(a4, self(ids.scenes[2]!))).toMatchObject({ ok: true });
    // as many as the activity has: all (null)
    expect(await setPacing(ctx(), ids.activity, 99)).toEqual({ ok: true, data: { open: null } });
    expect(
      await setPacing({ schoolId: ids.other as AuthorizedSchoolId, actorId: ids.foreignTeacher }, ids.activity, 1),
    ).toMatchObject({ ok: false, code: "NOT_FOUND" });
  });

  it("a session for the whole school lists the students who joined or answered, of this school only", async () => {
    const started = await startSession(ctx(), ids.activity, null);
    expect(started).toMatchObject({ ok: true });
    const sessionId = started.ok ? started.data.sessionId : "";
    await goToScene(ctx(), ids.activity, ids.scenes[1]!);
    await Promise.all([touchPresence(sessionId, ids.b), touchPresence(sessionId, ids.foreign)]);
    const grid = await liveGrid(ids.school, ids.activity);
    expect(grid).toMatchObject({ klass: null });
    expect(grid!.students.map((s) => [s.className, s.number, s.state])).toEqual([["2", 1, "working"]]);
    expect(await liveStateForStudent(ids.activity, "2:1")).toMatchObject({ status: "running" });
    await endSession(ctx(), ids.activity);
  });
});
