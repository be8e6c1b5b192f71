import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { LIVE_CHANNEL, subscribe } from "@/platform/notify/bus";
import { endSession, goToScene, setSceneLocked, startSession } from "@/features/play/server/session-commands";
import { liveStateForStaff, liveStateForStudent, sceneResults } from "@/features/play/server/state-queries";
import { scenesInOrder } from "@/features/play/shared/answer-order";
import { saveAnswer } from "@/features/play/server/answer-save-commands";
import { AnswerWriter } from "@/features/play/server/answer-writer";
import type { SaveAnswerInput } from "@/features/play/shared/answer-schema";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { testDatabaseUrl } from "../../../tests/support/helpers";

let school: string;
let other: string;
let student: { id: string; role: "student"; schoolId: string };
let stranger: { id: string; role: "student"; schoolId: string };
let teacher: { id: string; role: "teacher"; schoolId: string };
let activity: string;
let scenes: { id: string; type: string; position: number }[];
const key = () => `k${uniqueTag()}${uniqueTag()}`;
const input = (patch: Partial<SaveAnswerInput>): SaveAnswerInput => ({
  activityId: activity,
  sceneId: scenes[2]!.id,
  answer: { choice: "clear" },
  clientRevision: 1,
  idempotencyKey: key(),
  mode: "self",
  ...patch,
});

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `R${tag}`, nameKana: "あーる" });
  school = (await createSchool(db(), { academyId: academy.id, name: `R${tag}`, nameKana: "あーる" })).id;
  other = (await createSchool(db(), { academyId: academy.id, name: `Q${tag}`, nameKana: "きゅー" })).id;
  const make = async (schoolId: string, n: number, group: string) =>
    (
      await createUser(db(), {
        role: "student",
        email: `r${n}-${tag}@t.example`,
        schoolId,
        name: `回答 ${n}`,
        student: { grade: 1, className: "1", number: n, counterbalanceGroup: group },
      })
    ).id;
  student = { id: await make(school, 1, "B"), role: "student", schoolId: school };
  stranger = { id: await make(other, 2, "A"), role: "student", schoolId: other };
  teacher = {
    id: (await createUser(db(), { role: "teacher", email: `rt-${tag}@t.example`, schoolId: school })).id,
    role: "teacher",
    schoolId: school,
  };
  activity = (
    await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, mode: "self" })
  ).id;
  scenes = await db().activityScene.findMany({
    where: { activityId: activity },
    orderBy: { position: "asc" },
    select: { id: true, type: true, position: true },
  });
  // group B sees the two prediction scenes in the other order
  await db().activitySceneOrder.create({
    data: {
      activityId: activity,
      group: "B",
      sceneIds: [scenes[0]!.id, scenes[3]!.id, scenes[2]!.id, scenes[1]!.id, scenes[4]!.id],
    },
  });
});
afterAll(async () => {
  await db().$disconnect();
});

describe("saving answers", () => {
  it("stores one row per student and scene: retries never duplicate, an older revision never overwrites a newer one", async () => {
    const first = input({ clientRevision: 2, answer: { choice: "clear" } });
    const saved = await saveAnswer(student.id, first);
    expect(saved).toMatchObject({ ok: true, revision: 2, stale: false });
    // the same save again (a retry after a lost response)
    expect(await saveAnswer(student.id, first)).toMatchObject({ ok: true, revision: 2, stale: false });
    // an older edit arriving late changes nothing
    expect(await saveAnswer(student.id, input({ clientRevision: 1, answer: { choice: "cloudy" } }))).toMatchObject({
      ok: true,
      revision: 2,
      stale: true,
    });
    // a newer edit replaces it
    expect(await saveAnswer(student.id, input({ clientRevision: 3, answer: { choice: "colored" } }))).toMatchObject({
      ok: true,
      revision: 3,
    });
    const rows = await db().response.findMany({ where: { userId: student.id, sceneId: scenes[2]!.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      answer: { choice: "colored" },
      clientRevision: 3,
      mode: "self",
      counterbalanceGroup: "B",
      scenePosition: 2,
      sessionId: null,
    });
  });

  it("saves arriving together are checked and written in a few statements, each with its own outcome", async () => {
    const tag = uniqueTag();
    const classmates = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, n) =>
          (
            await createUser(db(), {
              role: "student",
              email: `rb${n}-${tag}@t.example`,
              schoolId: school,
              student: { grade: 2, className: "1", number: n + 1 },
            })
          ).id,
      ),
    );
    let statements = 0;
    const writer = new AnswerWriter((sql, params) => {
      statements += 1;
      return db().$queryRawUnsafe(sql, ...params);
    });
    // an activity of its own, so that these answers do not count in the other tests
    const own = (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, mode: "self" })
    ).id;
    const ownScenes = await db().activityScene.findMany({
      where: { activityId: own },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    const at = (patch: Partial<SaveAnswerInput>) => input({ activityId: own, ...patch });
    const sceneId = ownScenes[1]!.id; // the two-step prediction
    const choiceScene = ownScenes[2]!.id;
    const good = { first: "more", second: "sure", reason: "とけるから" };
    const retryKey = key();
    const results = await Promise.all([
      ...classmates.map((id) => writer.save(id, at({ sceneId, answer: good }))),
      writer.save(classmates[0]!, at({ sceneId: choiceScene, answer: { choice: "nope" } })), // refused, alone
      writer.save(stranger.id, at({ sceneId, answer: good })), // another school's student
      // the same student and scene three times in one turn: written one after the other, the newest wins
      writer.save(classmates[1]!, at({ sceneId: choiceScene, clientRevision: 5, idempotencyKey: retryKey })),
      writer.save(classmates[1]!, at({ sceneId: choiceScene, clientRevision: 5, idempotencyKey: retryKey })),
      writer.save(classmates[1]!, at({ sceneId: choiceScene, clientRevision: 4, answer: { choice: "cloudy" } })),
    ]);
    expect(results.slice(0, 40).every((r) => r.ok && r.revision === 1 && !r.stale)).toBe(true);
    expect(results.slice(40, 42)).toMatchObject([
      { ok: false, status: 400, reason: "invalidAnswer" },
      { ok: false, status: 404 },
    ]);
    expect(results.slice(42)).toMatchObject([
      { ok: true, revision: 5, stale: false },
      { ok: true, revision: 5, stale: false },
      { ok: true, revision: 5, stale: true },
    ]);
    // 45 saves: the first 43 in one statement (after learning the scenes); the two repeats of one row a statement each,
    // and once more when a repeat ran beside the statement that stored the row (its snapshot could not see it)
    expect(statements).toBeLessThanOrEqual(6);
    expect(await db().response.count({ where: { userId: { in: classmates }, sceneId } })).toBe(40);
    // the console's cross-table: the two steps counted together (the refused stranger is not among them)
    expect(await sceneResults(own, sceneId, false)).toMatchObject({
      total: 40,
      counts: { first: { more: 40 }, second: { sure: 40 } },
      cross: { more: { sure: 40 } },
    });
    expect(
      await db().response.findUniqueOrThrow({
        where: { userId_sceneId: { userId: classmates[1]!, sceneId: choiceScene } },
      }),
    ).toMatchObject({ clientRevision: 5, idempotencyKey: retryKey });

    // a scene edited after the writer learned it: answers are checked against the new content
    const scene = await db().activityScene.findUniqueOrThrow({ where: { id: choiceScene }, select: { content: true } });
    const content = scene.content as { prompt: string; options: { id: string; label: string }[] };
    await db().activityScene.update({
      where: { id: choiceScene },
      data: { content: { ...content, options: [...content.options, { id: "brand-new", label: "新しい選択肢" }] } },
    });
    expect(
      await writer.save(classmates[2]!, at({ sceneId: choiceScene, answer: { choice: "brand-new" } })),
    ).toMatchObject({ ok: true, revision: 1 });
    await db().activityScene.update({ where: { id: choiceScene }, data: { content } });
    expect(
      await writer.save(classmates[3]!, at({ sceneId: choiceScene, answer: { choice: "brand-new" } })),
    ).toMatchObject({ ok: false, status: 400, reason: "invalidAnswer" });
  });

  it("saves arriving one after another while no statement runs (a class answering at once) go in one statement", async () => {
    const tag = uniqueTag();
    const classmates = await Promise.all(
      Array.from(
        { length: 8 },
        async (_, n) =>
          (
            await createUser(db(), {
              role: "student",
              email: `rg${n}-${tag}@t.example`,
              schoolId: school,
              student: { grade: 3, className: "1", number: n + 1 },
            })
          ).id,
      ),
    );
    const own = (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, mode: "self" })
    ).id;
    const sceneId = (
      await db().activityScene.findMany({
        where: { activityId: own },
        orderBy: { position: "asc" },
        select: { id: true },
      })
    )[2]!.id;
    let statements = 0;
    // a window wider than the writer's own, so that a loaded machine's slow turns of the event loop stay inside it
    const writer = new AnswerWriter(
      (sql, params) => {
        statements += 1;
        return db().$queryRawUnsafe(sql, ...params);
      },
      { gatherMs: 100 },
    );
    const save = (id: string) => writer.save(id, input({ activityId: own, sceneId, answer: { choice: "clear" } }));
    expect(await save(classmates[0]!)).toMatchObject({ ok: true }); // the writer learns the scene
    statements = 0;
    const saving: ReturnType<typeof save>[] = [];
    for (const id of classmates.slice(1)) {
      await new Promise((resolve) => setImmediate(resolve)); // each request arrives in a later turn of the event loop
      saving.push(save(id));
    }
    expect((await Promise.all(saving)).every((r) => r.ok && !r.stale)).toBe(true);
    expect(statements).toBe(1);
  });

  it("records the position in the student's own group order", async () => {
    await saveAnswer(
      student.id,
      input({ sceneId: scenes[3]!.id, answer: { first: "out", second: "oxygen", reason: "空気がなくなるから" } }),
    );
    const row = await db().response.findUniqueOrThrow({
      where: { userId_sceneId: { userId: student.id, sceneId: scenes[3]!.id } },
    });
    expect(row.scenePosition).toBe(1);
    expect(scenesInOrder(scenes, [], null).map((s) => s.id)).toEqual(scenes.map((s) => s.id));
  });

  it("refuses bad answers with the reason, and writes nothing", async () => {
    const before = await db().response.count({ where: { activityId: activity } });
    expect(
      await saveAnswer(
        student.id,
        input({ sceneId: scenes[1]!.id, answer: { first: "more", second: "sure", reason: "  " } }),
      ),
    ).toMatchObject({ ok: false, status: 400, reason: "requiredInput" });
    expect(await saveAnswer(student.id, input({ answer: { choice: "nope" } }))).toMatchObject({
      ok: false,
      status: 400,
      reason: "invalidAnswer",
    });
    expect(await saveAnswer(student.id, input({ answer: { choice: "clear", extra: 1 } }))).toMatchObject({
      ok: false,
      reason: "invalidAnswer",
    });
    expect(await db().response.count({ where: { activityId: activity } })).toBe(before);
  });

  it("refuses another school's student, a manager, the wrong actor type and a scene of another activity", async () => {
    const before = await db().response.count();
    expect(await saveAnswer(stranger.id, input({}))).toMatchObject({ ok: false, status: 404 });
    // who the respondent is (role, school, disabled) is read from the database with the save
    const academyId = (await db().school.findUniqueOrThrow({ where: { id: school } })).academyId;
    const manager = await createUser(db(), { role: "manager", email: `rm-${uniqueTag()}@t.example`, academyId });
    expect(await saveAnswer(manager.id, input({}))).toMatchObject({ ok: false, status: 403, code: "FORBIDDEN" });
    expect(await saveAnswer(teacher.id, input({ mode: "guide" }))).toMatchObject({ ok: false, status: 403 });
    const gone = "00000000-0000-4000-8000-000000000000";
    expect(await saveAnswer(gone, input({}))).toMatchObject({ ok: false, status: 401, code: "UNAUTHENTICATED" });
    await db().user.update({ where: { id: stranger.id }, data: { disabled: true } });
    expect(await saveAnswer(stranger.id, input({}))).toMatchObject({ ok: false, status: 401 });
    await db().user.update({ where: { id: stranger.id }, data: { disabled: false } });
    expect(await saveAnswer(teacher.id, input({}))).toMatchObject({ ok: false, status: 404 });
    const otherActivity = await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: school,
      mode: "self",
    });
    expect(await saveAnswer(student.id, input({ activityId: otherActivity.id }))).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await db().response.count()).toBe(before);
  });

  it("self answers need self mode; guide answers need the running session on that scene, unlocked", async () => {
    const ctx = { schoolId: school as AuthorizedSchoolId, actorId: teacher.id };
    await db().activity.update({ where: { id: activity }, data: { mode: "standby" } });
    expect(await saveAnswer(student.id, input({ clientRevision: 10 }))).toMatchObject({
      ok: false,
      status: 409,
      reason: "notSelfMode",
    });
    expect(await saveAnswer(student.id, input({ mode: "guide", clientRevision: 10 }))).toMatchObject({
      ok: false,
      reason: "sessionNotRunning",
    });

    expect(await startSession(ctx, activity)).toMatchObject({ ok: true });
    const state = await liveStateForStudent(activity, null);
    expect(state).toMatchObject({ status: "running", mode: "guide", sceneId: scenes[0]!.id, locked: false });
    expect(await saveAnswer(student.id, input({ mode: "guide", clientRevision: 10 }))).toMatchObject({
      ok: false,
      reason: "notCurrentScene",
    });
    expect(await goToScene(ctx, activity, scenes[2]!.id)).toEqual({ ok: true, data: null });
    expect(
      await saveAnswer(student.id, input({ mode: "guide", clientRevision: 10, answer: { choice: "cloudy" } })),
    ).toMatchObject({ ok: true, revision: 10 });
    const row = await db().response.findUniqueOrThrow({
      where: { userId_sceneId: { userId: student.id, sceneId: scenes[2]!.id } },
    });
    expect(row).toMatchObject({
      mode: "guide",
      sessionId: state!.sessionId,
      scenePosition: 2,
      answer: { choice: "cloudy" },
    });

    const staff = await liveStateForStaff(activity, school);
    // the teacher's console has the results before 結果を見せる puts them on the projector
    expect(staff).toMatchObject({
      answered: 1,
      showResults: false,
      results: { sceneId: scenes[2]!.id, total: 1, counts: { choice: { cloudy: 1 } } },
    });
    expect(await setSceneLocked(ctx, activity, true)).toEqual({ ok: true, data: null });
    expect(await saveAnswer(student.id, input({ mode: "guide", clientRevision: 11 }))).toMatchObject({
      ok: false,
      reason: "locked",
    });
    expect((await liveStateForStudent(activity, null))!.locked).toBe(true);
    expect(await endSession(ctx, activity)).toEqual({ ok: true, data: null });
    expect(await saveAnswer(student.id, input({ mode: "guide", clientRevision: 11 }))).toMatchObject({
      ok: false,
      reason: "sessionNotRunning",
    });
    expect((await liveStateForStudent(activity, null))!.status).toBe("ended");
    // a state's version only grows
    expect((await liveStateForStudent(activity, null))!.version).toBeGreaterThan(state!.version);
  });

  it("moving to a scene: one statement that hides the results, logs, notifies, and refuses a scene of another activity", async () => {
    const ctx = { schoolId: school as AuthorizedSchoolId, actorId: teacher.id };
    await db().activity.update({ where: { id: activity }, data: { mode: "standby" } });
    expect(await startSession(ctx, activity)).toMatchObject({ ok: true });
    const seen: string[] = [];
    const unsubscribe = await subscribe(`activity:${activity}`, (m) => seen.push(m.kind));
    await db().guideSession.updateMany({ where: { activityId: activity, endedAt: null }, data: { showResults: true } });
    const before = (await liveStateForStudent(activity, null))!;
    const logged = await db().auditLog.count({ where: { action: "guide.scene", targetId: activity } });
    expect(await goToScene(ctx, activity, scenes[3]!.id)).toEqual({ ok: true, data: null });
    await expect.poll(() => seen).toContain("state");
    const after = (await liveStateForStaff(activity, school))!;
    expect(after).toMatchObject({ sceneId: scenes[3]!.id, showResults: false, version: before.version + 1 });
    expect(
      await db().auditLog.count({
        where: { action: "guide.scene", targetId: activity, actorId: teacher.id, schoolId: school },
      }),
    ).toBe(logged + 1);

    const foreignScene = await db().activityScene.findFirstOrThrow({
      where: { activityId: { not: activity } },
      select: { id: true },
    });
    expect(await goToScene(ctx, activity, foreignScene.id)).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await liveStateForStaff(activity, school)).toMatchObject({ sceneId: scenes[3]!.id, version: after.version });
    expect(await db().auditLog.count({ where: { action: "guide.scene", targetId: activity } })).toBe(logged + 1);
    unsubscribe();
    expect(await endSession(ctx, activity)).toMatchObject({ ok: true });
  });

  it("refuses session control on another school's activity", async () => {
    const ctx = { schoolId: other as AuthorizedSchoolId, actorId: teacher.id };
    expect(await startSession(ctx, activity)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await goToScene(ctx, activity, scenes[0]!.id)).toMatchObject({ ok: false, code: "CONFLICT" });
  });
});

describe("live notifications", () => {
  it("a NOTIFY from any connection reaches the subscribers of this instance, in order, only on commit", async () => {
    const seen: string[] = [];
    // a topic of its own: the earlier tests' coalesced count notifications may still arrive
    const topic = `activity:${crypto.randomUUID()}` as const;
    const unsubscribe = await subscribe(topic, (m) => seen.push(m.kind));
    const other = new pg.Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    await other.query("begin");
    await other.query("select pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify({ topic, kind: "state" })]);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]); // not before commit
    await other.query("select pg_notify($1, $2)", [LIVE_CHANNEL, JSON.stringify({ topic, kind: "counts" })]);
    await other.query("commit");
    await other.query("select pg_notify($1, $2)", [
      LIVE_CHANNEL,
      JSON.stringify({ topic: "activity:someone-else", kind: "state" }),
    ]);
    await expect.poll(() => seen).toEqual(["state", "counts"]);
    await other.end();
    unsubscribe();
  });
});
