/**
 * The bundled library (prisma/content/library, docs/product-design.md "The academy library"): a new academy
 * receives every ready activity once, loading again adds nothing and never brings back what its manager
 * withdrew; a teacher finds one by subject and stage and copies it, through the real server actions.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.mock("next/headers", () => import("../../../tests/support/next-headers-fake"));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

import { db } from "@/platform/db";
import { copyLibraryEntryAction, withdrawEntryAction } from "@/features/activities/server/library-actions";
import { readLibraryFiles } from "@/features/activities/server/library-bundle";
import { loadBundledLibrary } from "@/features/activities/server/library-bundle-commands";
import { loadBundledLibraryInto } from "@/features/activities/server/academy-library-commands";
import { libraryAcademyOf, listLibraryEntries } from "@/features/activities/server/library-queries";
import { libraryFilterSchema } from "@/features/activities/shared/library-schema";
import { correctIdsOf } from "@/features/scenes/shared/key";
import { sceneSchema } from "@/features/scenes/shared/schema";
import { createAcademy, createSchool, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { session, sessionCookieOf } from "../../../tests/support/next-headers-fake";

const w = { academy: "", school: "", teacher: "", manager: "" };
const files = await readLibraryFiles();
const entriesOf = (academyId: string) =>
  db().libraryEntry.findMany({ where: { academyId }, select: { id: true, bundleId: true, content: true } });
const as = async (id: string, role: "teacher" | "manager") => {
  session.cookie = await sessionCookieOf(id, role);
};

beforeAll(async () => {
  const tag = uniqueTag();
  w.academy = (await createAcademy(db(), { name: `既製${tag}`, nameKana: "きせい" })).id;
  w.school = (await createSchool(db(), { academyId: w.academy, name: `既製中${tag}`, nameKana: "きせいちゅう" })).id;
  const user = async (role: "teacher" | "manager", place: object) =>
    (await createUser(db(), { role, email: `${role}-${uniqueTag()}@bundle.example`, name: "既 太郎", ...place })).id;
  w.teacher = await user("teacher", { schoolId: w.school });
  w.manager = await user("manager", { academyId: w.academy });
});

afterAll(async () => {
  await db().$disconnect();
});

describe("the bundled library", () => {
  it("a new academy receives every bundled activity once; loading again adds nothing; a withdrawn one does not come back", async () => {
    expect(await loadBundledLibraryInto(w.academy)).toBe(files.length);
    expect(await loadBundledLibraryInto(w.academy)).toBe(0);
    const entries = await entriesOf(w.academy);
    expect(entries.map((e) => e.bundleId).sort()).toEqual(files.map((f) => f.id).sort());

    await as(w.manager, "manager");
    const withdrawn = entries.find((e) => e.bundleId === files[0]!.id)!;
    expect(await withdrawEntryAction({ entryId: withdrawn.id })).toMatchObject({ ok: true });
    expect(await loadBundledLibrary(db(), files, [w.academy])).toEqual({ academies: 1, added: 0 });
    expect(await entriesOf(w.academy)).toHaveLength(files.length - 1);
  });

  it("two loads at once (two starts) still give each file once", async () => {
    const other = (await createAcademy(db(), { name: `同時${uniqueTag()}`, nameKana: "どうじ" })).id;
    const runs = await Promise.all([loadBundledLibraryInto(other), loadBundledLibraryInto(other)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(files.length);
    expect(await entriesOf(other)).toHaveLength(files.length);
  });

  it("a teacher finds 理科・中学校 and copies one: the copy has the scenes, the answer key and verdicts after each answer", async () => {
    await as(w.teacher, "teacher");
    const academy = await libraryAcademyOf({ id: w.teacher, role: "teacher", schoolId: w.school, academyId: null });
    const found = await listLibraryEntries(academy!, libraryFilterSchema.parse({ subject: "science", grade: "j" }));
    const expected = files.filter((f) => f.subject === "science" && f.grade.startsWith("j"));
    expect(found.total).toBe(expected.length);
    expect(found.rows.every((r) => r.bundled && r.subject === "science" && r.grade?.startsWith("j"))).toBe(true);

    const row = found.rows[0]!;
    const copied = await copyLibraryEntryAction({ entryId: row.id });
    expect(copied).toMatchObject({ ok: true });
    const activity = await db().activity.findUniqueOrThrow({
      where: { id: copied.ok ? copied.data.id : "" },
      select: {
        schoolId: true,
        feedback: true,
        scenes: { orderBy: { position: "asc" }, select: { type: true, content: true } },
      },
    });
    const source = files.find((f) => f.title === row.title)!;
    expect(activity.schoolId).toBe(w.school);
    expect(activity.feedback).toBe("after_answer");
    expect(activity.scenes.map((s) => s.type)).toEqual(source.scenes.map((s) => s.type));
    const keys = activity.scenes.map((s) => correctIdsOf(sceneSchema.parse(s)));
    expect(keys).toEqual(source.scenes.map((s) => correctIdsOf(s)));
    expect(keys.flat().length).toBeGreaterThan(0);

    // loading again never touches the teacher's copy nor adds a second entry
    const before = await db().activityScene.findMany({ where: { activityId: copied.ok ? copied.data.id : "" } });
    await loadBundledLibraryInto(w.academy);
    expect(await db().activityScene.findMany({ where: { activityId: copied.ok ? copied.data.id : "" } })).toEqual(
      before,
    );
  });
});
