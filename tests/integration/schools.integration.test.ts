import { afterAll, describe, expect, it } from "vitest";
import { checkPassword } from "@/lib/auth/credentials";
import { db } from "@/lib/db";
import { listSchoolsForAcademy } from "@/lib/schools/data";
import { addTeacher, createSchool as createOwnSchool, listTeachersBySchool, moveTeacher, renameSchool, setTeacherDisabled } from "@/lib/schools/manage";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../prisma/seed/factories";

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
    expect(await renameSchool(ctx, first.data.id, { name: "北第一小学校", nameKana: "きただいいちしょうがっこう" })).toEqual({ ok: true, data: null });
    expect((await listSchoolsForAcademy(academy.id)).map((s) => s.name)).toEqual(["北第一小学校", "南小学校"].sort());

    const email = `teach-${tag}@t.example`;
    const added = await addTeacher(ctx, { schoolId: first.data.id, name: "先生 一", nameKana: "せんせい いち", email });
    if (!added.ok) throw new Error("add failed");
    expect(await checkPassword({ email, password: added.data.password }, "198.51.100.7")).toMatchObject({ ok: true, user: { role: "teacher" } });
    expect(await addTeacher(ctx, { schoolId: second.data.id, name: "同じ", nameKana: "", email })).toEqual({ ok: false, code: "CONFLICT", fieldErrors: { email: ["emailInUse"] } });
    expect(await addTeacher(ctx, { schoolId: foreign.id, name: "よそ", nameKana: "", email: `x-${tag}@t.example` })).toEqual({ ok: false, code: "NOT_FOUND" });

    expect(await setTeacherDisabled(ctx, added.data.id, true)).toEqual({ ok: true, data: null });
    expect(await checkPassword({ email, password: added.data.password }, "198.51.100.7")).toMatchObject({ ok: false, code: "userDisabled" });
    await setTeacherDisabled(ctx, added.data.id, false);

    expect(await moveTeacher(ctx, added.data.id, foreign.id)).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await moveTeacher(ctx, added.data.id, second.data.id)).toEqual({ ok: true, data: null });
    const teachers = await listTeachersBySchool(academy.id);
    expect(teachers.get(first.data.id)).toBeUndefined();
    expect(teachers.get(second.data.id)?.map((t) => t.email)).toEqual([email]);
    expect(await db().auditLog.count({ where: { actorId: manager.id } })).toBe(7);
  });
});
