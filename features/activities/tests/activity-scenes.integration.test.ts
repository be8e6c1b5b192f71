import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addScene,
  createBlankActivity,
  deleteScene,
  duplicateScene,
  retypeScene,
  saveSceneContent,
} from "@/features/activities/server/scene-commands";
import { blankActivitySchema, saveSceneSchema } from "@/features/activities/shared/scene-schema";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

const choice = (prompt: string) => ({
  type: "single_choice" as const,
  content: {
    prompt,
    options: [
      { id: "a", label: "あ" },
      { id: "b", label: "い" },
    ],
  },
});
const info = { type: "info" as const, content: { prompt: "新しい説明" } };

describe("activity editor: scene edits", () => {
  let school: string;
  let other: string;
  let teacher: string;
  let student: string;
  const ctx = () => ({ schoolId: school as AuthorizedSchoolId, actorId: teacher });
  /** A fresh copy of math-linear-equations (info, single, multiple, two_step, scale) with scene ids in order. */
  const fresh = async (schoolId = school) => {
    const act = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId });
    const scenes = await db().activityScene.findMany({
      where: { activityId: act.id },
      orderBy: { position: "asc" },
      select: { id: true, type: true, content: true },
    });
    return { id: act.id, scenes, ids: scenes.map((s) => s.id) };
  };
  const state = async (activityId: string) => {
    const a = await db().activity.findUnique({
      where: { id: activityId },
      select: {
        version: true,
        scenes: { orderBy: { position: "asc" }, select: { id: true, content: true } },
        sceneOrders: { select: { group: true, sceneIds: true } },
      },
    });
    return {
      version: a!.version,
      ids: a!.scenes.map((s) => s.id),
      contents: a!.scenes.map((s) => s.content),
      groups: Object.fromEntries(a!.sceneOrders.map((o) => [o.group, o.sceneIds])),
    };
  };

  beforeAll(async () => {
    await syncTemplates(db(), await readTemplateFiles());
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `編集学園${tag}`, nameKana: "へんしゅう" });
    school = (await createSchool(db(), { academyId: academy.id, name: `編集校${tag}`, nameKana: "へんしゅうこう" })).id;
    other = (await createSchool(db(), { academyId: academy.id, name: `別校${tag}`, nameKana: "べつこう" })).id;
    teacher = (await createUser(db(), { role: "teacher", email: `ed-${tag}@t.example`, schoolId: school })).id;
    student = (
      await createUser(db(), {
        role: "student",
        email: `eds-${tag}@t.example`,
        schoolId: school,
        student: { grade: 1, className: "1", number: 1 },
      })
    ).id;
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("saves a choice scene's new question and options and moves the version on", async () => {
    const a = await fresh();
    expect(
      await saveSceneContent(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[1]!, scene: choice("新しい問い") }),
    ).toEqual({ ok: true, data: { version: 2 } });
    const s = await state(a.id);
    expect(s.version).toBe(2);
    expect(s.contents[1]).toEqual(choice("新しい問い").content);
  });

  it("refuses content the stored schema refuses: empty prompt, one option, repeated ids, unstorable text, another type", () => {
    const base = { activityId: crypto.randomUUID(), version: 1, sceneId: crypto.randomUUID() };
    const bad = [
      choice("   "),
      { type: "single_choice", content: { prompt: "問い", options: [{ id: "a", label: "あ" }] } },
      {
        type: "single_choice",
        content: {
          prompt: "問い",
          options: [
            { id: "a", label: "あ" },
            { id: "a", label: "い" },
          ],
        },
      },
      choice("\uD800問い"),
      choice("\u0000"),
      { type: "scale", content: { prompt: "問い", minLabel: "", maxLabel: "高い" } },
      { type: "info", content: { prompt: "x".repeat(4001) } },
      { type: "video", content: { prompt: "問い" } },
      { type: "drawing", content: { prompt: "問い", instructions: "" } },
    ];
    for (const scene of bad)
      expect(saveSceneSchema.safeParse({ ...base, scene }).success, JSON.stringify(scene).slice(0, 60)).toBe(false);
    expect(saveSceneSchema.safeParse({ ...base, scene: choice("問い") }).success).toBe(true);
  });

  it("refuses to change a scene's type", async () => {
    const a = await fresh();
    expect(
      await saveSceneContent(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[0]!, scene: choice("x") }),
    ).toMatchObject({ ok: false, code: "VALIDATION" });
    expect((await state(a.id)).version).toBe(1);
  });

  it("makes a never-answered scene another type, and refuses one with answers, a later version or on a live screen", async () => {
    const a = await fresh();
    const made = await retypeScene(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[0]!, scene: choice("問い") });
    expect(made).toEqual({ ok: true, data: { version: 2 } });
    const row = await db().activityScene.findUniqueOrThrow({ where: { id: a.ids[0]! } });
    expect(row).toMatchObject({ type: "single_choice", version: 1, content: choice("問い").content });

    await createResponse(db(), {
      activityId: a.id,
      sceneId: a.ids[1]!,
      userId: student,
      answer: { choice: "x" },
      scenePosition: 1,
    });
    const answered = await retypeScene(ctx(), { activityId: a.id, version: 2, sceneId: a.ids[1]!, scene: info });
    expect(answered).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { scene: ["answered"] } });
    await db().activityScene.update({ where: { id: a.ids[2]! }, data: { version: 2 } });
    const versioned = await retypeScene(ctx(), { activityId: a.id, version: 2, sceneId: a.ids[2]!, scene: info });
    expect(versioned).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { scene: ["answered"] } });
    await db().guideSession.create({ data: { activityId: a.id, startedById: teacher, currentSceneId: a.ids[3]! } });
    const live = await retypeScene(ctx(), { activityId: a.id, version: 2, sceneId: a.ids[3]!, scene: info });
    expect(live).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { scene: ["live"] } });
    const stale = await retypeScene(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[4]!, scene: info });
    expect(stale).toMatchObject({ ok: false, code: "CONFLICT" });
    const elsewhere = await retypeScene(
      { schoolId: other as AuthorizedSchoolId, actorId: teacher },
      { activityId: a.id, version: 2, sceneId: a.ids[4]!, scene: info },
    );
    expect(elsewhere).toMatchObject({ ok: false, code: "NOT_FOUND" });
    const s = await state(a.id);
    expect(s.version).toBe(2);
    expect(s.contents.slice(1)).toEqual(a.scenes.slice(1).map((x) => x.content));
  });

  it("never changes or deletes a scene that has an answer, and writes nothing", async () => {
    const a = await fresh();
    await createResponse(db(), {
      activityId: a.id,
      sceneId: a.ids[1]!,
      userId: student,
      answer: { choice: "x" },
      scenePosition: 1,
    });
    expect(
      await saveSceneContent(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[1]!, scene: choice("変更") }),
    ).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { scene: ["answered"] } });
    expect(await deleteScene(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[1]! })).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { scene: ["answered"] },
    });
    const s = await state(a.id);
    expect(s.version).toBe(1);
    expect(s.ids).toEqual(a.ids);
    expect(s.contents[1]).toEqual(a.scenes[1]!.content);
  });

  it("of two concurrent saves with the same version exactly one wins; the other gets CONFLICT", async () => {
    const a = await fresh();
    const results = await Promise.all([
      saveSceneContent(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[1]!, scene: choice("一人目") }),
      saveSceneContent(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[1]!, scene: choice("二人目") }),
      addScene(ctx(), { activityId: a.id, version: 1, scene: info }),
      deleteScene(ctx(), { activityId: a.id, version: 1, sceneId: a.ids[0]! }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.code)).toEqual(["CONFLICT", "CONFLICT", "CONFLICT"]);
    expect((await state(a.id)).version).toBe(2);
  });

  it("adds, duplicates and deletes scenes keeping the default and every group order consistent", async () => {
    const a = await fresh();
    const groupB = [...a.ids].reverse();
    await db().activitySceneOrder.create({ data: { activityId: a.id, group: "B", sceneIds: groupB } });
    const added = await addScene(ctx(), { activityId: a.id, version: 1, afterSceneId: a.ids[0], scene: info });
    if (!added.ok) throw new Error("add failed");
    let s = await state(a.id);
    expect(s.ids).toEqual([a.ids[0], added.data.sceneId, ...a.ids.slice(1)]);
    expect(s.groups.B).toEqual([...groupB.slice(0, 5), added.data.sceneId]);
    const copy = await duplicateScene(ctx(), { activityId: a.id, version: 2, sceneId: a.ids[3]! });
    if (!copy.ok) throw new Error("duplicate failed");
    s = await state(a.id);
    expect(s.ids.indexOf(copy.data.sceneId)).toBe(s.ids.indexOf(a.ids[3]!) + 1);
    expect(s.contents[s.ids.indexOf(copy.data.sceneId)]).toEqual(a.scenes[3]!.content);
    expect(s.groups.B![s.groups.B!.indexOf(a.ids[3]!) + 1]).toBe(copy.data.sceneId);
    expect(await deleteScene(ctx(), { activityId: a.id, version: 3, sceneId: a.ids[2]! })).toEqual({
      ok: true,
      data: { version: 4 },
    });
    s = await state(a.id);
    expect(s.ids).not.toContain(a.ids[2]);
    expect(s.groups.B).not.toContain(a.ids[2]);
    expect([...s.groups.B!].sort()).toEqual([...s.ids].sort());
    const positions = await db().activityScene.findMany({
      where: { activityId: a.id },
      orderBy: { position: "asc" },
      select: { position: true },
    });
    expect(positions.map((p) => p.position)).toEqual(s.ids.map((_, i) => i));
  });

  it("refuses to delete the last scene", async () => {
    const a = await fresh();
    let version = 1;
    for (const id of a.ids.slice(1)) {
      expect((await deleteScene(ctx(), { activityId: a.id, version, sceneId: id })).ok).toBe(true);
      version++;
    }
    expect(await deleteScene(ctx(), { activityId: a.id, version, sceneId: a.ids[0]! })).toEqual({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { scene: ["last"] },
    });
    expect((await state(a.id)).ids).toEqual([a.ids[0]]);
  });

  it("treats another school's activity, and a scene of another activity, as not found", async () => {
    const theirs = await fresh(other);
    const mine = await fresh();
    expect(
      await saveSceneContent(ctx(), { activityId: theirs.id, version: 1, sceneId: theirs.ids[1]!, scene: choice("x") }),
    ).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(
      await saveSceneContent(ctx(), { activityId: mine.id, version: 1, sceneId: theirs.ids[1]!, scene: choice("x") }),
    ).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await duplicateScene(ctx(), { activityId: mine.id, version: 1, sceneId: theirs.ids[1]! })).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await deleteScene(ctx(), { activityId: theirs.id, version: 1, sceneId: theirs.ids[1]! })).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await addScene(ctx(), { activityId: theirs.id, version: 1, scene: info })).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    expect((await state(theirs.id)).contents).toEqual(theirs.scenes.map((s) => s.content));
  });

  it("creates a blank activity with its one information scene in the school; a blank title or another first scene type is refused", async () => {
    const made = await createBlankActivity(ctx(), { title: "白紙の授業", scene: info });
    if (!made.ok) throw new Error("create failed");
    const row = await db().activity.findUniqueOrThrow({
      where: { id: made.data.id },
      select: {
        schoolId: true,
        title: true,
        templateId: true,
        actorType: true,
        version: true,
        scenes: { select: { type: true, content: true, position: true } },
      },
    });
    expect(row).toEqual({
      schoolId: school,
      title: "白紙の授業",
      templateId: null,
      actorType: "student",
      version: 1,
      scenes: [{ type: "info", content: info.content, position: 0 }],
    });
    expect(blankActivitySchema.safeParse({ title: "  ", scene: info }).success).toBe(false);
    expect(blankActivitySchema.safeParse({ title: "題", scene: choice("問い") }).success).toBe(false);
    expect(blankActivitySchema.safeParse({ title: "\u0000", scene: info }).success).toBe(false);
  });
});
