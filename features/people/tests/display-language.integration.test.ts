import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { languageOfUser } from "@/platform/i18n/queries";
import { saveOwnLanguage } from "@/platform/i18n/commands";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { addStudent, importStudents, updateStudent } from "@/features/people/server/commands";
import { studentInput } from "@/features/people/shared/schema";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";

/**
 * A person's display language (docs/adr/0002-language-at-sign-in.md). A
 * teacher sets a student's in the add and edit forms ("" clears it, a form
 * without the field leaves it); at sign-in it wins, else staff get plain
 * Japanese and students reading aids.
 */
const setup = async () => {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `L${tag}`, nameKana: "える" });
  const school = await createSchool(db(), { academyId: academy.id, name: `L${tag}`, nameKana: "える" });
  const teacher = await createUser(db(), { role: "teacher", email: `lt-${tag}@t.example`, schoolId: school.id });
  const ctx = { schoolId: school.id as AuthorizedSchoolId, actorId: teacher.id };
  return { tag, ctx, teacher };
};
const form = (over: Record<string, string> = {}) =>
  studentInput.parse({ name: "一年 生", grade: "1", className: "1", number: "1", group: "", ...over });
const stored = async (id: string) =>
  (await db().user.findUniqueOrThrow({ where: { id }, select: { displayLanguage: true } })).displayLanguage;

afterAll(async () => {
  await db().$disconnect();
});

describe("a person's display language", () => {
  it("the add and edit forms set, keep and clear a student's language; sign-in uses it, else the language chosen on the device, else the role's default", async () => {
    const { ctx, teacher } = await setup();
    const added = await addStudent(ctx, form({ displayLanguage: "ja-kana" }));
    if (!added.ok) throw new Error(added.code);
    const id = added.data.id;
    expect(await stored(id)).toBe("ja-kana");
    expect(await languageOfUser(id)).toEqual({ lang: "ja-kana", own: true });

    expect(await updateStudent(ctx, id, form({ number: "2" }))).toEqual({ ok: true, data: null }); // no field: unchanged
    expect(await stored(id)).toBe("ja-kana");
    expect(await updateStudent(ctx, id, form({ displayLanguage: "" }))).toEqual({ ok: true, data: null }); // cleared
    expect(await stored(id)).toBeNull();
    expect(await languageOfUser(id)).toEqual({ lang: "ja-ruby", own: false }); // the role's default
    expect(await languageOfUser(id, "ja-kana")).toEqual({ lang: "ja-kana", own: false }); // chosen on the device before sign-in

    expect(await languageOfUser(teacher.id)).toEqual({ lang: "ja", own: false });
    await saveOwnLanguage(teacher.id, "ja-ruby");
    expect(await languageOfUser(teacher.id, "ja-kana")).toEqual({ lang: "ja-ruby", own: true }); // their own wins
  });

  it("the CSV import writes the optional display-language column", async () => {
    const { ctx, tag } = await setup();
    const csv = `学年,組,番号,氏名,メールアドレス,表示のことば\r\n1,1,1,一年 花子,k-${tag}@t.example,ひらがな\r\n1,1,2,一年 次郎,j-${tag}@t.example,\r\n`;
    const result = await importStudents(ctx, new TextEncoder().encode(csv), true);
    expect(result.ok && result.data.imported).toBe(2);
    const rows = await db().user.findMany({
      where: { email: { in: [`k-${tag}@t.example`, `j-${tag}@t.example`] } },
      orderBy: { email: "asc" },
      select: { displayLanguage: true },
    });
    expect(rows.map((r) => r.displayLanguage)).toEqual([null, "ja-kana"]);
  });

  it("refuses a language that is not one of the three, in the form and in the database", async () => {
    expect(
      studentInput.safeParse({ name: "x", grade: 1, className: "1", number: 1, displayLanguage: "en" }).success,
    ).toBe(false);
    const { teacher } = await setup();
    await expect(
      db().$executeRaw`update users set display_language = 'klingon' where id = ${teacher.id}::uuid`,
    ).rejects.toThrow(/check/i);
  });
});
