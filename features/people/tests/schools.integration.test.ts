import { afterAll, describe, expect, it } from "vitest";
import { checkPassword } from "@/platform/auth/credentials";
import { db } from "@/platform/db";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import { listSchoolsForAcademy, listTeachersBySchool } from "@/features/people/server/school-queries";
import {
  addTeacher,
  createSchool as createOwnSchool,
  deleteSchool,
  moveTeacher,
  renameSchool,
  setTeacherDisabled,
} from "@/features/people/server/school-commands";
import {
  createActivityFromTemplate,
  createAcademy,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

afterAll(async () => {
  await db().$disconnect();
});

describe("manager: the academy's schools and teachers", () => {
  it("creates and renames schools, adds a teacher who can sign in, disables and moves them, all inside the academy", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `K${tag}`, nameKana: "けー" });
    const other = await createAcademy(db(), { name: `L${tag}`, nameKana: "える" });
    const foreign = await createSchool(db(), { academyId: other.id, name: `よそ${tag}`, nameKana: "よそ" });
    const manager = await createUser(db(), { role: "manager", email: `mgr-${tag}@t.example`, academyId: academy.id });
    const ctx = { academyId: academy.id, actorId: manager.id };

    const first = await createOwnSchool(ctx, { name: "北小学校", nameKana: "きたしょうがっこう" });
    const second = await createOwnSchool(ctx, { name: "南小学校", nameKana: "みなみしょうがっこう" });
    if (!first.ok || !second.ok) throw new Error("create failed");
    expect(
      await renameSchool(ctx, first.data.id, { name: "北第一小学校", nameKana: "きただいいちしょうがっこう" }),
    ).toEqual({ ok: true, data: null });
    expect((await listSchoolsForAcademy(academy.id)).map((s) => s.name)).toEqual(["北第一小学校", "南小学校"].sort());

    const email = `teach-${tag}@t.example`;
    const added = await addTeacher(ctx, { schoolId: first.data.id, name: "先生 一", nameKana: "せんせい いち", email });
    if (!added.ok) throw new Error("add failed");
    expect(await checkPassword({ email, password: added.data.password }, "198.51.100.7")).toMatchObject({
      ok: true,
      user: { role: "teacher" },
    });
    expect(await addTeacher(ctx, { schoolId: second.data.id, name: "同じ", nameKana: "", email })).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { email: ["emailInUse"] },
    });
    expect(
      await addTeacher(ctx, { schoolId: foreign.id, name: "よそ", nameKana: "", email: `x-${tag}@t.example` }),
    ).toEqual({ ok: false, code: "NOT_FOUND" });

    expect(await setTeacherDisabled(ctx, added.data.id, true)).toEqual({ ok: true, data: null });
    expect(await checkPassword({ email, password: added.data.password }, "198.51.100.7")).toMatchObject({
      ok: false,
      code: "userDisabled",
    });
    await setTeacherDisabled(ctx, added.data.id, false);

    expect(await moveTeacher(ctx, added.data.id, foreign.id)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await moveTeacher(ctx, added.data.id, second.data.id)).toEqual({ ok: true, data: null });
    const teachers = await listTeachersBySchool(academy.id);
    expect(teachers.get(first.data.id)).toBeUndefined();
    expect(teachers.get(second.data.id)?.map((t) => t.email)).toEqual([email]);
    expect(await db().auditLog.count({ where: { actorId: manager.id } })).toBe(7);
  });
});

describe("manager: deleting a school", () => {
  it("deletes an empty school of the academy (audited); refuses one with people or activities, and another academy's", async () => {
    await syncTemplates(db(), await readTemplateFiles());
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `D${tag}`, nameKana: "でぃー" });
    const other = await createAcademy(db(), { name: `E${tag}`, nameKana: "いー" });
    const manager = await createUser(db(), { role: "manager", email: `dm-${tag}@t.example`, academyId: academy.id });
    const ctx = { academyId: academy.id, actorId: manager.id };
    const empty = await createSchool(db(), { academyId: academy.id, name: `空${tag}`, nameKana: "から" });
    const withTeacher = await createSchool(db(), { academyId: academy.id, name: `師${tag}`, nameKana: "し" });
    const withActivity = await createSchool(db(), { academyId: academy.id, name: `活${tag}`, nameKana: "かつ" });
    const foreign = await createSchool(db(), { academyId: other.id, name: `外${tag}`, nameKana: "そと" });
    await createUser(db(), { role: "teacher", email: `dt-${tag}@t.example`, schoolId: withTeacher.id, disabled: true });
    await createActivityFromTemplate(db(), {
      templateId: "science-dissolve",
      schoolId: withActivity.id,
      status: "archived",
    });

    expect(await deleteSchool(ctx, foreign.id)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await deleteSchool(ctx, withTeacher.id)).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { school: ["notEmpty"] },
    });
    expect(await deleteSchool(ctx, withActivity.id)).toEqual({
      ok: false,
      code: "CONFLICT",
      fieldErrors: { school: ["notEmpty"] },
    });
    expect(await db().school.count({ where: { id: { in: [foreign.id, withTeacher.id, withActivity.id] } } })).toBe(3);
    expect(await deleteSchool(ctx, empty.id)).toEqual({ ok: true, data: null });
    expect(await db().school.findUnique({ where: { id: empty.id } })).toBeNull();
    // the log still says which school it was once the row is gone
    expect(
      await db().auditLog.findMany({
        where: { actorId: manager.id },
        select: { action: true, targetId: true, schoolId: true, meta: true },
      }),
    ).toEqual([{ action: "school.delete", targetId: empty.id, schoolId: empty.id, meta: { name: `空${tag}` } }]);
  });

  it("a race: students added while the school is deleted are never lost (each add either stays in the kept school or fails)", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `R${tag}`, nameKana: "あーる" });
    const manager = await createUser(db(), { role: "manager", email: `rm-${tag}@t.example`, academyId: academy.id });
    const ctx = { academyId: academy.id, actorId: manager.id };
    const outcomes = new Set<string>();
    for (let round = 0; round < 12; round++) {
      const school = await createSchool(db(), { academyId: academy.id, name: `競${tag}-${round}`, nameKana: "きそう" });
      const add = (n: number) =>
        createUser(db(), {
          role: "student",
          email: `r${round}-${n}-${tag}@t.example`,
          schoolId: school.id,
          student: { grade: 1, className: "1", number: n + 1 },
        }).then(
          (u) => u.id,
          () => null,
        );
      // the adds start on both sides of the delete, so some interleave with its check
      const [before, deleted, after] = await Promise.all([
        Promise.all([0, 1, 2].map(add)),
        deleteSchool(ctx, school.id),
        Promise.all([3, 4, 5].map(add)),
      ]);
      const added = [...before, ...after].filter((id): id is string => id !== null);
      const kept = await db().school.count({ where: { id: school.id } });
      expect(
        await db().user.count({ where: { id: { in: added }, schoolId: school.id } }),
        `round ${round}: every add that succeeded is stored`,
      ).toBe(added.length);
      if (deleted.ok) expect({ kept, added: added.length }).toEqual({ kept: 0, added: 0 });
      else
        expect({ deleted, kept }).toEqual({
          deleted: { ok: false, code: "CONFLICT", fieldErrors: { school: ["notEmpty"] } },
          kept: 1,
        });
      outcomes.add(deleted.ok ? "deleted" : "kept");
    }
    expect(outcomes.size, `${[...outcomes]}`).toBeGreaterThan(0);
  });
});
