/**
 * An activity exported as a file from one school and imported into another
 * (docs/product-design.md "Sharing activities"), through the real route
 * handler and server action as signed-in users (tests/support/next-headers-fake.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));
// outside a request next-intl has no locale: the file name is made in the default language
vi.mock("next-intl/server", () => ({ getLocale: async () => "ja" }));

import { NextRequest } from "next/server";
import { duplicateActivityAction, importActivityFromForm } from "@/features/activities/server/actions";
import { activityFileExport } from "@/features/activities/server/export";
import { db } from "@/platform/db";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const w = { schoolA: "", schoolB: "", teacherA: "", teacherB: "", managerA: "", studentA: "", activity: "" };

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academyA = await createAcademy(db(), { name: `移A${tag}`, nameKana: "いえー" });
  const academyB = await createAcademy(db(), { name: `移B${tag}`, nameKana: "いびー" });
  w.schoolA = (await createSchool(db(), { academyId: academyA.id, name: `移A校${tag}`, nameKana: "いえーこう" })).id;
  w.schoolB = (await createSchool(db(), { academyId: academyB.id, name: `移B校${tag}`, nameKana: "いびーこう" })).id;
  const user = async (role: "student" | "teacher" | "manager", place: object) =>
    (await createUser(db(), { role, email: `${role}-${uniqueTag()}@transfer.example`, name: "移 太郎", ...place })).id;
  w.teacherA = await user("teacher", { schoolId: w.schoolA });
  w.teacherB = await user("teacher", { schoolId: w.schoolB });
  w.managerA = await user("manager", { academyId: academyA.id });
  w.studentA = await user("student", { schoolId: w.schoolA, student: { grade: 1, className: "1", number: 1 } });
  w.activity = (
    await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: w.schoolA,
      title: "|溶(と)ける/と:とけない*",
      mode: "self",
    })
  ).id;
  const scenes = await scenesOf(w.activity);
  await db().activitySceneOrder.create({
    data: { activityId: w.activity, group: "B", sceneIds: scenes.map((s) => s.id).reverse() },
  });
  const twoStep = scenes.find((s) => s.type === "two_step")!;
  await createResponse(db(), {
    activityId: w.activity,
    sceneId: twoStep.id,
    userId: w.studentA,
    scenePosition: twoStep.position,
    answer: { first: "same", second: "sure", reason: "ひみつの理由" },
  });
});
afterAll(async () => {
  await db().$disconnect();
});

async function as(id: string, role: string) {
  session.cookie = await sessionCookieOf(id, role);
}
function scenesOf(activityId: string) {
  return db().activityScene.findMany({
    where: { activityId },
    orderBy: { position: "asc" },
    select: { id: true, type: true, content: true, position: true },
  });
}
const exportOf = (activityId: string, query = "") =>
  activityFileExport(new NextRequest(`http://localhost/api/v1/exports/${activityId}/activity${query}`), activityId);
const formOf = (text: string | Uint8Array, name = "activity.json") => {
  const form = new FormData();
  form.set("file", new File([text as BlobPart], name, { type: "application/json" }));
  return form;
};

describe("activity export and import", () => {
  let text = "";

  it("export: a JSON attachment named from the title, with the scenes and group orders and no ids or answers", async () => {
    await as(w.teacherA, "teacher");
    const res = await exportOf(w.activity);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const disposition = res.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename="activity-[0-9a-f]{8}\.json"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("''")[1]!)).toBe("溶ける_と_とけない__活動データ.json");
    text = await res.text();
    const file = JSON.parse(text);
    expect(file).toMatchObject({
      format: "manabiya-activity",
      version: 1,
      title: "|溶(と)ける/と:とけない*",
      actorType: "student",
    });
    const scenes = await scenesOf(w.activity);
    expect(file.scenes.map((s: { type: string; content: unknown }) => ({ type: s.type, content: s.content }))).toEqual(
      scenes.map((s) => ({ type: s.type, content: s.content })),
    );
    expect(file.groupOrders).toEqual({ B: scenes.map((_, i) => `s${i + 1}`).reverse() });
    expect(text).not.toMatch(UUID);
    expect(text).not.toContain("ひみつの理由");
    expect(
      await db().auditLog.count({ where: { action: "export.activity", targetId: w.activity, actorId: w.teacherA } }),
    ).toBe(1);
  });

  it("import into another school: a new activity whose scenes, content, order and group order are the same; exported again it is the same file", async () => {
    await as(w.teacherB, "teacher");
    const before = await db().activity.count({ where: { schoolId: w.schoolB } });
    const result = await importActivityFromForm(null, formOf(text));
    expect(result).toMatchObject({ ok: true, data: { title: "|溶(と)ける/と:とけない*" } });
    const id = (result as { data: { id: string } }).data.id;
    const made = await db().activity.findUniqueOrThrow({
      where: { id },
      select: {
        schoolId: true,
        createdById: true,
        templateId: true,
        mode: true,
        status: true,
        actorType: true,
        sceneOrders: true,
      },
    });
    expect(made).toMatchObject({
      schoolId: w.schoolB,
      createdById: w.teacherB,
      templateId: null,
      mode: "standby",
      status: "active",
      actorType: "student",
    });
    const original = await scenesOf(w.activity);
    const copied = await scenesOf(id);
    expect(copied.map(({ type, content, position }) => ({ type, content, position }))).toEqual(
      original.map(({ type, content, position }) => ({ type, content, position })),
    );
    expect(made.sceneOrders).toEqual([
      expect.objectContaining({ group: "B", sceneIds: copied.map((s) => s.id).reverse() }),
    ]);
    expect(await db().response.count({ where: { activityId: id } })).toBe(0);
    expect(await db().activity.count({ where: { schoolId: w.schoolB } })).toBe(before + 1);
    expect(
      await db().auditLog.count({
        where: { action: "activity.import", targetId: id, actorId: w.teacherB, schoolId: w.schoolB },
      }),
    ).toBe(1);
    const again = await exportOf(id);
    expect(await again.text()).toBe(text);
  });

  it("duplicate: a teacher copies an activity of the school, with its scenes, group orders and feedback timing, none of its answers; audited; another school's teacher gets not found", async () => {
    await db().activity.update({ where: { id: w.activity }, data: { feedback: "at_end" } });
    await as(w.teacherA, "teacher");
    const made = await duplicateActivityAction({ activityId: w.activity });
    if (!made.ok) throw new Error(JSON.stringify(made));
    const copy = await db().activity.findUniqueOrThrow({
      where: { id: made.data.id },
      select: {
        schoolId: true,
        title: true,
        feedback: true,
        mode: true,
        createdById: true,
        sceneOrders: { select: { group: true, sceneIds: true } },
      },
    });
    expect(copy).toMatchObject({
      schoolId: w.schoolA,
      title: "|溶(と)ける/と:とけない*（コピー）",
      feedback: "at_end",
      mode: "standby",
      createdById: w.teacherA,
    });
    const [from, to] = [await scenesOf(w.activity), await scenesOf(made.data.id)];
    expect(to.map(({ type, content, position }) => ({ type, content, position }))).toEqual(
      from.map(({ type, content, position }) => ({ type, content, position })),
    );
    expect(to.map((s) => s.id).some((id) => from.some((f) => f.id === id))).toBe(false);
    expect(copy.sceneOrders).toEqual([{ group: "B", sceneIds: to.map((s) => s.id).reverse() }]);
    expect(await db().response.count({ where: { activityId: made.data.id } })).toBe(0);
    expect(await db().auditLog.count({ where: { action: "activity.duplicate", targetId: made.data.id } })).toBe(1);
    await db().activity.update({ where: { id: w.activity }, data: { feedback: "never" } });

    await as(w.teacherB, "teacher");
    const before = await db().activity.count({ where: { schoolId: w.schoolB } });
    expect(await duplicateActivityAction({ activityId: w.activity })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await db().activity.count({ where: { schoolId: w.schoolB } })).toBe(before);
  });

  it("the same file imported twice makes two activities", async () => {
    await as(w.teacherB, "teacher");
    const a = await importActivityFromForm(null, formOf(text));
    const b = await importActivityFromForm(null, formOf(text));
    expect(a.ok && b.ok && a.data.id !== b.data.id).toBe(true);
  });

  it("school B's teacher cannot export school A's activity: the answer of an activity that does not exist", async () => {
    await as(w.teacherB, "teacher");
    const theirs = await exportOf(w.activity);
    const nowhere = await exportOf(crypto.randomUUID());
    const forged = await exportOf(w.activity, `?school=${w.schoolA}`);
    for (const res of [theirs, nowhere, forged]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ ok: false, code: "NOT_FOUND" });
    }
    await as(w.studentA, "student");
    expect((await exportOf(w.activity)).status).toBe(403);
    session.cookie = "";
    expect((await exportOf(w.activity)).status).toBe(401);
  });

  it("the academy's manager exports naming the school; without it, not found", async () => {
    await as(w.managerA, "manager");
    expect((await exportOf(w.activity, `?school=${w.schoolA}`)).status).toBe(200);
    expect((await exportOf(w.activity)).status).toBe(404);
  });

  it("a refused file creates nothing and says why (version, scene type, scene content, not JSON, binary, empty)", async () => {
    await as(w.teacherB, "teacher");
    const before = await db().activity.count({ where: { schoolId: w.schoolB } });
    const file = JSON.parse(text);
    const cases: [string | Uint8Array, Record<string, string[]>][] = [
      [JSON.stringify({ ...file, version: 2 }), { file: ["versionUnknown"], found: ["2"] }],
      [
        JSON.stringify({ ...file, scenes: [{ ...file.scenes[0], type: "video" }] }),
        { file: ["sceneType"], scene: ["1"], found: ["video"] },
      ],
      [
        JSON.stringify({ ...file, scenes: [file.scenes[0], { ...file.scenes[1], content: {} }] }),
        { file: ["sceneContent"], scene: ["2"] },
      ],
      [text.slice(0, 100), { file: ["notJson"] }],
      [new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 1]), { file: ["binary"] }],
      ["", { file: ["empty"] }],
      [" ".repeat(1000 * 1024), { file: ["tooLarge"] }],
    ];
    for (const [body, fieldErrors] of cases) {
      expect(await importActivityFromForm(null, formOf(body))).toEqual({ ok: false, code: "VALIDATION", fieldErrors });
    }
    expect(await importActivityFromForm(null, new FormData())).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await db().activity.count({ where: { schoolId: w.schoolB } })).toBe(before);
  });
});
