/**
 * Several classes at once (docs/adr/0061-several-classes-at-once.md): two teachers run the same
 * activity in different classes, each class follows its own session (scene, pause, timer), answers
 * land in the student's own class's session, the grids and projector views never mix, a control
 * addresses one session by id (another school's or an unknown id: NOT_FOUND, nothing changed), and
 * the whole school's session and a class's exclude each other.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { liveGrid } from "@/features/play/server/grid-queries";
import {
  endSession,
  goToScene,
  setSceneLocked,
  setSessionFlags,
  setSessionPaused,
  setSessionTimer,
  startSession,
} from "@/features/play/server/session-commands";
import { liveStateForStaff, liveStateForStudent } from "@/features/play/server/state-queries";
import { projectorState } from "@/features/play/server/projector-queries";
import { createProjectorLink } from "@/features/play/server/projector-commands";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { createActivityFromTemplate, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { twoSchools } from "../../../tests/support/two-schools";

const ids = {} as {
  school: string;
  other: string;
  t1: string;
  t2: string;
  foreignTeacher: string;
  activity: string;
  otherActivity: string;
  foreignActivity: string;
  scenes: string[];
  a1: string;
  a2: string;
  b1: string;
  s1: string;
  s2: string;
};
const as = (actorId: string) => ({ schoolId: ids.school as AuthorizedSchoolId, actorId });
const classA = { grade: 3, className: "1" };
const classB = { grade: 3, className: "2" };
const guideAnswer = (sceneId: string, choice = "clear") => ({
  activityId: ids.activity,
  sceneId,
  answer: { choice },
  clientRevision: 1,
  idempotencyKey: `k${uniqueTag()}${uniqueTag()}`,
  mode: "guide" as const,
});
const idOf = (result: { ok: boolean; data?: { sessionId: string } } | { ok: false }) =>
  "data" in result && result.data ? result.data.sessionId : "";

beforeAll(async () => {
  const { tag, school, other } = await twoSchools();
  const student = async (key: string, klass: { grade: number; className: string }, number: number) =>
    (
      await createUser(db(), {
        role: "student",
        email: `mc${key}-${tag}@t.example`,
        schoolId: school.id,
        name: `生徒 ${key}`,
        nameKana: `せいと ${key}`,
        student: { ...klass, number },
      })
    ).id;
  const teacher = async (key: string, schoolId: string) =>
    (await createUser(db(), { role: "teacher", email: `mc${key}-${tag}@t.example`, schoolId, name: `先生 ${key}` })).id;
  const activity = await createActivityFromTemplate(db(), {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "standby",
  });
  Object.assign(ids, {
    school: school.id,
    other: other.id,
    activity: activity.id,
    otherActivity: (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school.id, mode: "standby" })
    ).id,
    foreignActivity: (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: other.id, mode: "standby" })
    ).id,
    a1: await student("a1", classA, 1),
    a2: await student("a2", classA, 2),
    b1: await student("b1", classB, 1),
    t1: await teacher("t1", school.id),
    t2: await teacher("t2", school.id),
    foreignTeacher: await teacher("tf", other.id),
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

describe("several classes run the same activity at once", () => {
  it("two teachers start it for 1組 and 2組: two sessions, each class follows only its own scene, pause and timer", async () => {
    const first = await startSession(as(ids.t1), ids.activity, classA);
    const second = await startSession(as(ids.t2), ids.activity, classB);
    expect(first).toMatchObject({ ok: true });
    expect(second).toMatchObject({ ok: true });
    ids.s1 = idOf(first);
    ids.s2 = idOf(second);
    expect(ids.s1).not.toBe(ids.s2);
    expect(
      await db().guideSession.findMany({
        where: { activityId: ids.activity, endedAt: null },
        orderBy: { className: "asc" },
        select: { id: true, grade: true, className: true, startedById: true },
      }),
    ).toEqual([
      { id: ids.s1, ...classA, startedById: ids.t1 },
      { id: ids.s2, ...classB, startedById: ids.t2 },
    ]);
    expect(await goToScene(as(ids.t1), ids.activity, ids.scenes[2]!, ids.s1)).toEqual({ ok: true, data: null });
    expect(await goToScene(as(ids.t2), ids.activity, ids.scenes[3]!, ids.s2)).toEqual({ ok: true, data: null });
    expect(await setSessionPaused(as(ids.t1), ids.activity, true, ids.s1)).toEqual({ ok: true, data: null });
    expect(await setSessionTimer(as(ids.t2), ids.activity, { seconds: 60, locks: false }, ids.s2)).toEqual({
      ok: true,
      data: null,
    });

    const one = await liveStateForStudent(ids.activity, "3:1");
    const two = await liveStateForStudent(ids.activity, "3:2");
    expect(one).toMatchObject({
      status: "running",
      sessionId: ids.s1,
      sceneId: ids.scenes[2],
      paused: true,
      timer: null,
      classKey: "3:1",
    });
    expect(two).toMatchObject({
      status: "running",
      sessionId: ids.s2,
      sceneId: ids.scenes[3],
      paused: false,
      classKey: "3:2",
    });
    expect(two!.timer).not.toBeNull();
    // a student whose class runs nothing: no session for them
    expect(await liveStateForStudent(ids.activity, "3:9")).toMatchObject({ status: "waiting", sessionId: null });
  });

  it("answers land in the student's own class's session; the grids, counts and projector of each class never mix", async () => {
    expect(await setSessionPaused(as(ids.t1), ids.activity, false, ids.s1)).toEqual({ ok: true, data: null });
    expect(await goToScene(as(ids.t2), ids.activity, ids.scenes[2]!, ids.s2)).toEqual({ ok: true, data: null });
    expect(await saveAnswer(ids.a1, guideAnswer(ids.scenes[2]!, "clear"))).toMatchObject({ ok: true });
    expect(await saveAnswer(ids.b1, guideAnswer(ids.scenes[2]!, "cloudy"))).toMatchObject({ ok: true });
    const rows = await db().response.findMany({
      where: { activityId: ids.activity, sceneId: ids.scenes[2] },
      select: { userId: true, sessionId: true },
    });
    expect(new Map(rows.map((r) => [r.userId, r.sessionId]))).toEqual(
      new Map([
        [ids.a1, ids.s1],
        [ids.b1, ids.s2],
      ]),
    );

    const gridA = await liveGrid(ids.school, ids.activity, ids.s1);
    const gridB = await liveGrid(ids.school, ids.activity, ids.s2);
    expect(gridA!.students.map((s) => [s.className, s.number, s.state])).toEqual([
      ["1", 1, "answered"],
      ["1", 2, "notJoined"],
    ]);
    expect(gridB!.students.map((s) => [s.className, s.number, s.state])).toEqual([["2", 1, "answered"]]);

    const staffA = await liveStateForStaff(ids.activity, ids.school, ids.s1);
    expect(staffA).toMatchObject({ sessionId: ids.s1, classKey: "3:1", answered: 1 });
    expect(staffA!.sessions.map((s) => [s.id, s.klass, s.startedBy])).toEqual([
      [ids.s1, classA, "先生 t1"],
      [ids.s2, classB, "先生 t2"],
    ]);
    // several run and none is chosen: the teacher's screen shows no session's controls
    expect(await liveStateForStaff(ids.activity, ids.school)).toMatchObject({
      sessionId: null,
      status: "waiting",
      grid: null,
    });

    expect(await setSessionFlags(as(ids.t1), ids.activity, { showResults: true }, ids.s1)).toEqual({
      ok: true,
      data: null,
    });
    expect(await setSessionFlags(as(ids.t2), ids.activity, { showResults: true }, ids.s2)).toEqual({
      ok: true,
      data: null,
    });
    const linkA = await createProjectorLink(as(ids.t1), ids.activity, ids.s1);
    const linkB = await createProjectorLink(as(ids.t2), ids.activity, ids.s2);
    const tokenOf = (link: typeof linkA) => (link.ok ? link.data.path.split("/").pop()! : "");
    const viewA = await projectorState(tokenOf(linkA));
    const viewB = await projectorState(tokenOf(linkB));
    expect(viewA).toMatchObject({ status: "running", results: { total: 1, counts: { choice: { clear: 1 } } } });
    expect(viewB).toMatchObject({ status: "running", results: { total: 1, counts: { choice: { cloudy: 1 } } } });
  });

  it("a control on one session leaves the other as it was; a session id of another school, activity or none is NOT_FOUND and changes nothing", async () => {
    const foreign = await startSession(
      { schoolId: ids.other as AuthorizedSchoolId, actorId: ids.foreignTeacher },
      ids.foreignActivity,
      null,
    );
    const sibling = await startSession(as(ids.t1), ids.otherActivity, null);
    const before = await db().guideSession.findMany({
      where: { id: { in: [idOf(foreign), idOf(sibling), ids.s2] } },
      orderBy: { id: "asc" },
    });
    for (const wrong of [idOf(foreign), idOf(sibling), crypto.randomUUID()]) {
      expect(await setSessionPaused(as(ids.t1), ids.activity, true, wrong)).toEqual({ ok: false, code: "NOT_FOUND" });
      expect(await goToScene(as(ids.t1), ids.activity, ids.scenes[1]!, wrong)).toEqual({
        ok: false,
        code: "NOT_FOUND",
      });
      expect(await setSessionTimer(as(ids.t1), ids.activity, { seconds: 30, locks: true }, wrong)).toMatchObject({
        ok: false,
        code: "NOT_FOUND",
      });
      expect(await setSceneLocked(as(ids.t1), ids.activity, true, wrong)).toMatchObject({
        ok: false,
        code: "NOT_FOUND",
      });
      expect(await endSession(as(ids.t1), ids.activity, wrong)).toMatchObject({ ok: false, code: "NOT_FOUND" });
      expect(await createProjectorLink(as(ids.t1), ids.activity, wrong)).toMatchObject({
        ok: false,
        code: "NOT_FOUND",
      });
    }
    // a teacher of another school naming this school's session, through their own school
    const outsider = { schoolId: ids.other as AuthorizedSchoolId, actorId: ids.foreignTeacher };
    expect(await setSessionPaused(outsider, ids.activity, true, ids.s2)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await endSession(outsider, ids.activity, ids.s2)).toMatchObject({ ok: false, code: "NOT_FOUND" });
    // two run and none is named: the control must choose
    expect(await setSessionPaused(as(ids.t1), ids.activity, true)).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(await endSession(as(ids.t1), ids.activity)).toMatchObject({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { session: ["chooseSession"] },
    });
    expect(
      await db().guideSession.findMany({
        where: { id: { in: [idOf(foreign), idOf(sibling), ids.s2] } },
        orderBy: { id: "asc" },
      }),
    ).toEqual(before);

    // ending 1組's session ends only it
    expect(await endSession(as(ids.t1), ids.activity, ids.s1)).toEqual({ ok: true, data: null });
    expect(
      await db().guideSession.findUniqueOrThrow({ where: { id: ids.s2 }, select: { endedAt: true, paused: true } }),
    ).toEqual({ endedAt: null, paused: false });
    expect(await liveStateForStudent(ids.activity, "3:2")).toMatchObject({ status: "running", sessionId: ids.s2 });
    expect((await liveStateForStudent(ids.activity, "3:1"))!.status).not.toBe("running");
    expect(await saveAnswer(ids.a2, guideAnswer(ids.scenes[2]!))).toMatchObject({
      ok: false,
      reason: "sessionNotRunning",
    });
    // the teacher who chose the ended session sees it ended; with one left running, it is the one shown
    expect(await liveStateForStaff(ids.activity, ids.school, ids.s1)).toMatchObject({
      sessionId: ids.s1,
      status: "ended",
    });
    expect(await liveStateForStaff(ids.activity, ids.school)).toMatchObject({ sessionId: ids.s2, status: "running" });
    await endSession(outsider, ids.foreignActivity, idOf(foreign));
    await endSession(as(ids.t1), ids.otherActivity, idOf(sibling));
  });

  it("the whole school's session and a class's exclude each other; starts for one class at once make one session", async () => {
    expect(await startSession(as(ids.t1), ids.activity, null)).toMatchObject({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { session: ["otherClass"] },
    });
    expect(await endSession(as(ids.t2), ids.activity, ids.s2)).toEqual({ ok: true, data: null });

    const starts = await Promise.all(
      [ids.t1, ids.t2, ids.t1, ids.t2, ids.t1].map((t) => startSession(as(t), ids.activity, classA)),
    );
    expect(starts.every((s) => s.ok)).toBe(true);
    expect(new Set(starts.map(idOf)).size).toBe(1);
    expect(await db().guideSession.count({ where: { activityId: ids.activity, endedAt: null } })).toBe(1);
    expect(await startSession(as(ids.t2), ids.activity, null)).toMatchObject({ ok: false, code: "CONFLICT" });
    await endSession(as(ids.t1), ids.activity, idOf(starts[0]!));

    const whole = await startSession(as(ids.t1), ids.activity, null);
    expect(whole).toMatchObject({ ok: true });
    expect(await startSession(as(ids.t2), ids.activity, classB)).toMatchObject({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { session: ["otherClass"] },
    });
    expect(await liveStateForStudent(ids.activity, "3:2")).toMatchObject({ status: "running", sessionId: idOf(whole) });
    await endSession(as(ids.t1), ids.activity, idOf(whole));
  });

  it("the database holds one running session per activity and class even past the start mutation", async () => {
    const row = { activityId: ids.activity, startedById: ids.t1, currentSceneId: ids.scenes[0]!, ...classB };
    await db().guideSession.create({ data: row, select: { id: true } });
    await expect(db().guideSession.create({ data: row, select: { id: true } })).rejects.toThrow();
    // another class at the same time is allowed
    await expect(db().guideSession.create({ data: { ...row, ...classA }, select: { id: true } })).resolves.toBeTruthy();
    await db().guideSession.updateMany({
      where: { activityId: ids.activity, endedAt: null },
      data: { endedAt: new Date() },
    });
  });
});
