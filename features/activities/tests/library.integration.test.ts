/**
 * The academy library (docs/product-design.md "The academy library"): a
 * manager publishes a school's activity as a snapshot, teachers of the
 * academy's schools find and copy it, other academies never see it; through
 * the real server actions as signed-in users (tests/support/next-headers-fake.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { duplicateActivityAction } from "@/features/activities/server/actions";
import { db } from "@/platform/db";
import {
  copyLibraryEntryAction,
  publishActivityAction,
  setEntryTagsAction,
  withdrawEntryAction,
} from "@/features/activities/server/library-actions";
import { libraryAcademyOf, listLibraryEntries } from "@/features/activities/server/library-queries";
import { libraryFilterSchema } from "@/features/activities/shared/library-schema";
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

const w = {
  academyA: "",
  academyB: "",
  schoolA: "",
  schoolA2: "",
  schoolB: "",
  teacherA: "",
  teacherA2: "",
  teacherB: "",
  managerA: "",
  managerB: "",
  studentA: "",
  activity: "",
};

beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  w.academyA = (await createAcademy(db(), { name: `図A${tag}`, nameKana: "ずえー" })).id;
  w.academyB = (await createAcademy(db(), { name: `図B${tag}`, nameKana: "ずびー" })).id;
  w.schoolA = (await createSchool(db(), { academyId: w.academyA, name: `図A校${tag}`, nameKana: "ずえーこう" })).id;
  w.schoolA2 = (await createSchool(db(), { academyId: w.academyA, name: `図A2校${tag}`, nameKana: "ずえーにこう" })).id;
  w.schoolB = (await createSchool(db(), { academyId: w.academyB, name: `図B校${tag}`, nameKana: "ずびーこう" })).id;
  const user = async (role: "student" | "teacher" | "manager", place: object) =>
    (await createUser(db(), { role, email: `${role}-${uniqueTag()}@library.example`, name: "図 太郎", ...place })).id;
  w.teacherA = await user("teacher", { schoolId: w.schoolA });
  w.teacherA2 = await user("teacher", { schoolId: w.schoolA2 });
  w.teacherB = await user("teacher", { schoolId: w.schoolB });
  w.managerA = await user("manager", { academyId: w.academyA });
  w.managerB = await user("manager", { academyId: w.academyB });
  w.studentA = await user("student", { schoolId: w.schoolA, student: { grade: 1, className: "1", number: 1 } });
  w.activity = (
    await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: w.schoolA,
      title: `|溶(と)ける|実験(じっけん)100%_${tag}`,
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
const entries = () =>
  db().libraryEntry.findMany({ where: { academyId: { in: [w.academyA, w.academyB] } }, orderBy: { id: "asc" } });
const publish = (extra: object = {}) =>
  publishActivityAction({
    schoolId: w.schoolA,
    activityId: w.activity,
    subject: "science",
    grade: "e5",
    unit: "  もののとけ方  ",
    ...extra,
  });
const search = async (
  actor: { id: string; role: "teacher" | "manager"; schoolId: string | null; academyId: string | null },
  q: Record<string, string>,
) => {
  const academy = await libraryAcademyOf(actor);
  return academy ? listLibraryEntries(academy, libraryFilterSchema.parse(q)) : null;
};

describe("publishing", () => {
  it("a teacher (even of the school), a student and another academy's manager cannot publish; nothing is stored", async () => {
    const before = await entries();
    await as(w.teacherA, "teacher");
    expect(await publish()).toMatchObject({ ok: false, code: "FORBIDDEN" });
    await as(w.studentA, "student");
    expect(await publish()).toMatchObject({ ok: false, code: "FORBIDDEN" });
    await as(w.managerB, "manager");
    expect(await publish()).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await publish({ schoolId: w.schoolB })).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect(await entries()).toEqual(before);
  });

  it("refuses an unknown subject or grade and a unit over 100 characters", async () => {
    await as(w.managerA, "manager");
    expect(await publish({ subject: "alchemy" })).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await publish({ grade: "k9" })).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await publish({ unit: "あ".repeat(101) })).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(await db().libraryEntry.count({ where: { sourceActivityId: w.activity } })).toBe(0);
  });

  it("the academy's manager publishes a snapshot (no answers), audited; a later edit does not change it until published again", async () => {
    await as(w.managerA, "manager");
    const first = await publish();
    expect(first).toMatchObject({ ok: true, data: { republished: false } });
    const id = (first as { data: { id: string } }).data.id;
    const entry = await db().libraryEntry.findUniqueOrThrow({ where: { id } });
    expect(entry).toMatchObject({
      academyId: w.academyA,
      sourceSchoolId: w.schoolA,
      subject: "science",
      grade: "e5",
      unit: "もののとけ方",
      publishedById: w.managerA,
      sceneCount: (await scenesOf(w.activity)).length,
    });
    const text = JSON.stringify(entry.content);
    expect(text).not.toContain("ひみつの理由");
    expect(text).not.toContain(w.studentA);
    expect(text).not.toContain(w.schoolA);
    expect(entry.content).toMatchObject({
      format: "manabiya-activity",
      version: 1,
      groupOrders: { B: expect.any(Array) },
    });
    const log = await db().auditLog.findFirst({
      where: { action: "library.publish", targetId: id },
      orderBy: { id: "desc" },
    });
    expect(log).toMatchObject({ actorId: w.managerA, schoolId: w.schoolA, academyId: w.academyA });

    await db().activity.update({ where: { id: w.activity }, data: { title: "あとで変えた題名" } });
    expect((await db().libraryEntry.findUniqueOrThrow({ where: { id } })).title).toBe(entry.title);
    const again = await publish({ subject: "", grade: "", unit: "" });
    expect(again).toEqual({ ok: true, data: { id, republished: true } });
    expect(await db().libraryEntry.findUniqueOrThrow({ where: { id } })).toMatchObject({
      title: "あとで変えた題名",
      subject: null,
      grade: null,
      unit: "",
    });
    await db().activity.update({ where: { id: w.activity }, data: { title: entry.title } });
    await publish();
  });

  it("publishing the same activity twice at once leaves one entry", async () => {
    await as(w.managerA, "manager");
    const results = await Promise.all([publish(), publish()]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await db().libraryEntry.count({ where: { sourceActivityId: w.activity } })).toBe(1);
  });
});

describe("finding and copying", () => {
  const entryId = async () =>
    (await db().libraryEntry.findUniqueOrThrow({ where: { sourceActivityId: w.activity }, select: { id: true } })).id;

  it("a teacher of another school of the academy finds it by title, base text, reading and tags; % and _ are literal; another academy sees nothing", async () => {
    const teacher = { id: w.teacherA2, role: "teacher" as const, schoolId: w.schoolA2, academyId: null };
    const found = async (q: Record<string, string>) => (await search(teacher, q))!.rows.map((r) => r.id);
    const id = await entryId();
    expect(await found({ q: "溶ける実験" })).toContain(id);
    expect(await found({ q: "とけるじっけん" })).toContain(id);
    expect(await found({ q: "100%_" })).toContain(id);
    expect(await found({ q: "1%0" })).not.toContain(id);
    expect(await found({ subject: "science", grade: "e5", unit: "とけ" })).toContain(id);
    expect(await found({ subject: "math" })).not.toContain(id);
    expect(await found({ grade: "j1" })).not.toContain(id);
    const other = await search({ id: w.teacherB, role: "teacher", schoolId: w.schoolB, academyId: null }, {});
    expect(other!.rows.map((r) => r.id)).not.toContain(id);
    expect(
      await search({ id: w.managerB, role: "manager", schoolId: null, academyId: w.academyB }, { q: "溶ける" }),
    ).toEqual({ rows: [], total: 0 });
  });

  it("a teacher of the academy copies it into their own school like a template: scenes and group orders, no answers, audited", async () => {
    await as(w.teacherA2, "teacher");
    const result = await copyLibraryEntryAction({ entryId: await entryId(), title: "" });
    expect(result).toMatchObject({ ok: true });
    const copy = await db().activity.findUniqueOrThrow({
      where: { id: (result as { data: { id: string } }).data.id },
      include: { sceneOrders: true, responses: true },
    });
    expect(copy).toMatchObject({ schoolId: w.schoolA2, mode: "standby", createdById: w.teacherA2, responses: [] });
    expect((await scenesOf(copy.id)).map((s) => s.content)).toEqual((await scenesOf(w.activity)).map((s) => s.content));
    expect(copy.sceneOrders.map((o) => o.group)).toEqual(["B"]);
    expect(
      await db().auditLog.count({ where: { action: "activity.copyLibrary", targetId: copy.id, actorId: w.teacherA2 } }),
    ).toBe(1);
  });

  it("a teacher naming another school, or of another academy, cannot copy: forbidden or not found, as for an id that exists nowhere", async () => {
    const id = await entryId();
    const count = await db().activity.count({ where: { schoolId: { in: [w.schoolA, w.schoolA2, w.schoolB] } } });
    await as(w.teacherA2, "teacher");
    expect(await copyLibraryEntryAction({ entryId: id, schoolId: w.schoolA })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    await as(w.teacherB, "teacher");
    const forged = await copyLibraryEntryAction({ entryId: id });
    expect(forged).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await copyLibraryEntryAction({ entryId: crypto.randomUUID() })).toEqual(forged);
    await as(w.managerB, "manager");
    expect(await copyLibraryEntryAction({ entryId: id, schoolId: w.schoolB })).toEqual(forged);
    expect(await copyLibraryEntryAction({ entryId: id, schoolId: w.schoolA })).toMatchObject({
      ok: false,
      code: "FORBIDDEN",
    });
    await as(w.studentA, "student");
    expect(await copyLibraryEntryAction({ entryId: id })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await db().activity.count({ where: { schoolId: { in: [w.schoolA, w.schoolA2, w.schoolB] } } })).toBe(count);
  });

  it("two copies at once make two complete activities", async () => {
    await as(w.managerA, "manager");
    const id = await entryId();
    const results = await Promise.all([
      copyLibraryEntryAction({ entryId: id, schoolId: w.schoolA2, title: "同時" }),
      copyLibraryEntryAction({ entryId: id, schoolId: w.schoolA2, title: "同時" }),
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    const made = await db().activity.findMany({
      where: { schoolId: w.schoolA2, title: "同時" },
      select: { _count: { select: { scenes: true } } },
    });
    expect(made.map((a) => a._count.scenes)).toEqual(Array(2).fill((await scenesOf(w.activity)).length));
  });
});

describe("tags and withdrawal", () => {
  it("another academy's manager and teachers cannot retag or withdraw (not found / forbidden); the academy's manager may, audited; copies stay", async () => {
    const entry = await db().libraryEntry.findUniqueOrThrow({ where: { sourceActivityId: w.activity } });
    await as(w.managerB, "manager");
    expect(await setEntryTagsAction({ entryId: entry.id, subject: "math", grade: "j1", unit: "x" })).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await withdrawEntryAction({ entryId: entry.id })).toEqual({ ok: false, code: "NOT_FOUND" });
    await as(w.teacherA, "teacher");
    expect(await withdrawEntryAction({ entryId: entry.id })).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(await db().libraryEntry.findUniqueOrThrow({ where: { id: entry.id } })).toEqual(entry);

    await as(w.managerA, "manager");
    expect(await setEntryTagsAction({ entryId: entry.id, subject: "math", grade: "j1", unit: " 一次方程式 " })).toEqual(
      { ok: true, data: null },
    );
    expect(await db().libraryEntry.findUniqueOrThrow({ where: { id: entry.id } })).toMatchObject({
      subject: "math",
      grade: "j1",
      unit: "一次方程式",
      content: entry.content,
    });
    const copies = await db().activity.count({ where: { schoolId: w.schoolA2 } });
    expect(await withdrawEntryAction({ entryId: entry.id })).toEqual({ ok: true, data: null });
    expect(await db().libraryEntry.findUnique({ where: { id: entry.id } })).toBeNull();
    expect(await db().activity.count({ where: { schoolId: w.schoolA2 } })).toBe(copies);
    expect(await db().auditLog.findFirst({ where: { action: "library.withdraw", targetId: entry.id } })).toMatchObject({
      actorId: w.managerA,
      academyId: w.academyA,
      schoolId: w.schoolA,
    });
    await as(w.teacherA2, "teacher");
    expect(await copyLibraryEntryAction({ entryId: entry.id })).toEqual({ ok: false, code: "NOT_FOUND" });
  });
});

describe("the activity's snapshot", () => {
  it("content the activity file no longer accepts is neither published nor duplicated: VALIDATION on activityId, nothing made", async () => {
    const broken = (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: w.schoolA, mode: "self" })
    ).id;
    const [first] = await scenesOf(broken);
    await db().activityScene.update({ where: { id: first!.id }, data: { content: {} } });
    const refused = { ok: false, code: "VALIDATION", fieldErrors: { activityId: ["content"] } };
    const activities = () => db().activity.count({ where: { schoolId: w.schoolA } });
    const before = await activities();
    await as(w.managerA, "manager");
    expect(await publish({ activityId: broken })).toEqual(refused);
    await as(w.teacherA, "teacher");
    expect(await duplicateActivityAction({ activityId: broken })).toEqual(refused);
    expect(await db().libraryEntry.count({ where: { sourceActivityId: broken } })).toBe(0);
    expect(await activities()).toBe(before);
  });
});

describe("pages and odd input", () => {
  it("20 entries a page, newest first; an odd page, a NUL or an over-long search is an ordinary empty or first page, never an error", async () => {
    const academyId = (await createAcademy(db(), { name: `頁${uniqueTag()}`, nameKana: "ぺーじ" })).id;
    const content = {
      format: "manabiya-activity",
      version: 1,
      title: "t",
      actorType: "student",
      scenes: [{ id: "s1", type: "info", content: { prompt: "p" } }],
    };
    for (let n = 0; n < 21; n++) {
      await db().libraryEntry.create({
        data: {
          academyId,
          title: `頁${n}`,
          actorType: "student",
          sceneCount: 1,
          content,
          publishedAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
        },
      });
    }
    const manager = { id: crypto.randomUUID(), role: "manager" as const, schoolId: null, academyId };
    const first = await search(manager, {});
    expect(first!.total).toBe(21);
    expect(first!.rows.map((r) => r.title)).toEqual(Array.from({ length: 20 }, (_, i) => `頁${20 - i}`));
    expect((await search(manager, { page: "2" }))!.rows.map((r) => r.title)).toEqual(["頁0"]);
    expect((await search(manager, { page: "0" }))!.rows).toHaveLength(20);
    expect((await search(manager, { page: "abc" }))!.rows).toHaveLength(20);
    expect((await search(manager, { page: "99" }))!.rows).toEqual([]);
    expect(await search(manager, { q: "頁\u0000" })).toEqual({ rows: [], total: 0 });
    expect(await search(manager, { q: "頁".repeat(10_000) })).toEqual({ rows: [], total: 0 });
    expect(
      (await search(manager, { q: "頁2", subject: "nonsense", grade: "<script>" }))!.rows.map((r) => r.title).sort(),
    ).toEqual(["頁2", "頁20"]);
  });
});
