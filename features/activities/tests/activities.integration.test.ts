import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  changeMode,
  copyTemplate,
  deleteActivity,
  saveSceneOrder,
  setArchived,
} from "@/features/activities/server/commands";
import { db } from "@/platform/db";
import { type AuthorizedSchoolId, authorizeSchool, type ScopeActor } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

interface World {
  schoolA: string;
  schoolA2: string;
  schoolB: string;
  teacherA: ScopeActor;
  teacherB: ScopeActor;
  managerA: ScopeActor;
  managerB: ScopeActor;
  studentA: ScopeActor;
}

async function makeWorld(): Promise<World> {
  const tag = uniqueTag();
  const academyA = await createAcademy(db(), { name: `学園A${tag}`, nameKana: "がくえんえー" });
  const academyB = await createAcademy(db(), { name: `学園B${tag}`, nameKana: "がくえんびー" });
  const schoolA = await createSchool(db(), { academyId: academyA.id, name: `A校${tag}`, nameKana: "えーこう" });
  const schoolA2 = await createSchool(db(), { academyId: academyA.id, name: `A2校${tag}`, nameKana: "えーにこう" });
  const schoolB = await createSchool(db(), { academyId: academyB.id, name: `B校${tag}`, nameKana: "びーこう" });
  const user = async (role: "student" | "teacher" | "manager", place: { schoolId?: string; academyId?: string }) => {
    const u = await createUser(db(), {
      role,
      email: `${role}-${uniqueTag()}@t.example`,
      ...place,
      student: role === "student" ? { grade: 1, className: "1", number: 1 } : undefined,
    });
    return { id: u.id, role, schoolId: u.schoolId, academyId: u.academyId };
  };
  return {
    schoolA: schoolA.id,
    schoolA2: schoolA2.id,
    schoolB: schoolB.id,
    teacherA: await user("teacher", { schoolId: schoolA.id }),
    teacherB: await user("teacher", { schoolId: schoolB.id }),
    managerA: await user("manager", { academyId: academyA.id }),
    managerB: await user("manager", { academyId: academyB.id }),
    studentA: await user("student", { schoolId: schoolA.id }),
  };
}

const ctxOf = (schoolId: string, actorId: string) => ({ schoolId: schoolId as AuthorizedSchoolId, actorId });

describe("activities: scope and mutations", () => {
  let w: World;
  beforeAll(async () => {
    await syncTemplates(db(), await readTemplateFiles());
    w = await makeWorld();
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("authorizes a teacher for their school only, a manager for their academy's schools only, a student never", async () => {
    expect(await authorizeSchool(w.teacherA, undefined)).toBe(w.schoolA);
    expect(await authorizeSchool(w.teacherA, w.schoolA)).toBe(w.schoolA);
    expect(await authorizeSchool(w.teacherA, w.schoolA2)).toBeNull();
    expect(await authorizeSchool(w.teacherA, w.schoolB)).toBeNull();
    expect(await authorizeSchool(w.managerA, w.schoolA2)).toBe(w.schoolA2);
    expect(await authorizeSchool(w.managerA, w.schoolB)).toBeNull();
    expect(await authorizeSchool(w.managerB, w.schoolA)).toBeNull();
    expect(await authorizeSchool(w.managerA, undefined)).toBeNull();
    expect(await authorizeSchool(w.managerA, "not-a-uuid")).toBeNull();
    expect(await authorizeSchool(w.studentA, w.schoolA)).toBeNull();
    expect(await authorizeSchool({ ...w.teacherA, schoolId: null }, undefined)).toBeNull();
  });

  it("copies a template with its scenes; an empty title falls back to the template title; again after a delete", async () => {
    const ctx = ctxOf(w.schoolA, w.teacherA.id);
    const named = await copyTemplate(ctx, { templateId: "science-dissolve", title: "  ３組の予想  " });
    const plain = await copyTemplate(ctx, { templateId: "science-dissolve", title: "" });
    expect(named.ok && plain.ok).toBe(true);
    if (!named.ok || !plain.ok) return;
    const a = await db().activity.findUniqueOrThrow({
      where: { id: named.data.id },
      select: { title: true, schoolId: true, _count: { select: { scenes: true } } },
    });
    expect(a).toMatchObject({ title: "３組の予想", schoolId: w.schoolA });
    expect(a._count.scenes).toBe(5);
    const b = await db().activity.findUniqueOrThrow({ where: { id: plain.data.id }, select: { title: true } });
    expect(b.title).toBe("ものの|溶(と)け|方(かた)を|予想(よそう)しよう");
    expect(await copyTemplate(ctx, { templateId: "no-such-template" })).toEqual({ ok: false, code: "NOT_FOUND" });
    await setArchived(ctx, plain.data.id, true);
    expect((await deleteActivity(ctx, plain.data.id)).ok).toBe(true);
    expect((await copyTemplate(ctx, { templateId: "science-dissolve" })).ok).toBe(true);
  });

  it("refuses every mutation on another school's activity and changes nothing", async () => {
    const theirs = await createActivityFromTemplate(db(), {
      templateId: "reflection-weekly",
      schoolId: w.schoolB,
      mode: "guide",
    });
    const before = await db().activity.findUniqueOrThrow({ where: { id: theirs.id } });
    const ctx = ctxOf(w.schoolA, w.teacherA.id);
    expect(await changeMode(ctx, theirs.id, "complete")).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await setArchived(ctx, theirs.id, true)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await deleteActivity(ctx, theirs.id)).toEqual({ ok: false, code: "NOT_FOUND" });
    const scenes = await db().activityScene.findMany({ where: { activityId: theirs.id }, select: { id: true } });
    const order = scenes.map((s) => s.id).reverse();
    expect(
      await saveSceneOrder(ctx, { activityId: theirs.id, version: 1, title: "x", order, groupOrders: {} }),
    ).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await db().activity.findUniqueOrThrow({ where: { id: theirs.id } })).toEqual(before);
  });

  it("changes modes; leaving guide ends the live session", async () => {
    const ctx = ctxOf(w.schoolA, w.teacherA.id);
    const act = await createActivityFromTemplate(db(), {
      templateId: "math-linear-equations",
      schoolId: w.schoolA,
      mode: "guide",
    });
    await db().guideSession.create({ data: { activityId: act.id, startedById: w.teacherA.id } });
    for (const mode of ["self", "complete", "standby", "guide"] as const) {
      expect(await changeMode(ctx, act.id, mode)).toEqual({ ok: true, data: null });
      expect((await db().activity.findUniqueOrThrow({ where: { id: act.id } })).mode).toBe(mode);
    }
    expect(await db().guideSession.count({ where: { activityId: act.id, endedAt: null } })).toBe(0);
    expect(await db().auditLog.count({ where: { targetId: act.id, action: "activity.mode" } })).toBe(4);
  });

  it("archives, restores, and deletes only archived activities, with their responses", async () => {
    const ctx = ctxOf(w.schoolA, w.teacherA.id);
    const act = await createActivityFromTemplate(db(), {
      templateId: "reflection-weekly",
      schoolId: w.schoolA,
      mode: "complete",
    });
    const scene = await db().activityScene.findFirstOrThrow({ where: { activityId: act.id }, select: { id: true } });
    await createResponse(db(), {
      activityId: act.id,
      sceneId: scene.id,
      userId: w.studentA.id,
      answer: { value: 3 },
      scenePosition: 0,
    });
    expect(await deleteActivity(ctx, act.id)).toEqual({ ok: false, code: "CONFLICT" });
    expect((await setArchived(ctx, act.id, true)).ok).toBe(true);
    expect(await setArchived(ctx, act.id, true)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect((await setArchived(ctx, act.id, false)).ok).toBe(true);
    expect((await setArchived(ctx, act.id, true)).ok).toBe(true);
    expect(await db().response.count({ where: { activityId: act.id } })).toBe(1);
    expect((await deleteActivity(ctx, act.id)).ok).toBe(true);
    expect(await db().activity.count({ where: { id: act.id } })).toBe(0);
    expect(await db().response.count({ where: { activityId: act.id } })).toBe(0);
  });

  it("saves scene order and group orders with a version check", async () => {
    const ctx = ctxOf(w.schoolA, w.teacherA.id);
    const act = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId: w.schoolA });
    const ids = (
      await db().activityScene.findMany({
        where: { activityId: act.id },
        orderBy: { position: "asc" },
        select: { id: true },
      })
    ).map((s) => s.id);
    const reversed = [...ids].reverse();
    const saved = await saveSceneOrder(ctx, {
      activityId: act.id,
      version: 1,
      title: "",
      order: reversed,
      groupOrders: { B: ids },
    });
    expect(saved).toEqual({ ok: true, data: { version: 2 } });
    const now = await db().activityScene.findMany({
      where: { activityId: act.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    expect(now.map((s) => s.id)).toEqual(reversed);
    expect(
      (
        await db().activitySceneOrder.findUniqueOrThrow({
          where: { activityId_group: { activityId: act.id, group: "B" } },
        })
      ).sceneIds,
    ).toEqual(ids);
    expect((await db().activity.findUniqueOrThrow({ where: { id: act.id } })).title).toBe(
      "|一次方程式(いちじほうていしき)を|解(と)こう",
    );
    // a second editor still on version 1 loses, and nothing of theirs is written
    expect(
      await saveSceneOrder(ctx, { activityId: act.id, version: 1, title: "late", order: ids, groupOrders: {} }),
    ).toEqual({ ok: false, code: "CONFLICT" });
    expect((await db().activity.findUniqueOrThrow({ where: { id: act.id } })).title).not.toBe("late");
    const bad = await saveSceneOrder(ctx, {
      activityId: act.id,
      version: 2,
      title: "x",
      order: ids.slice(1),
      groupOrders: {},
    });
    expect(bad.ok).toBe(false);
    expect(
      (await saveSceneOrder(ctx, { activityId: act.id, version: 2, title: "x", order: ids, groupOrders: { B: null } }))
        .ok,
    ).toBe(true);
    expect(await db().activitySceneOrder.count({ where: { activityId: act.id } })).toBe(0);
  });
});
