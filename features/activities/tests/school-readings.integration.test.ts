import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { suggestFurigana } from "@/features/activities/server/furigana-suggest";
import { correctSchoolReading, deleteSchoolReading } from "@/features/activities/server/furigana-word-commands";
import { listReadingsPage } from "@/features/activities/server/school-reading-queries";
import { READINGS_PAGE_SIZE, readingInput, readingsQuery } from "@/features/activities/shared/school-readings";
import { createAcademy, createSchool, uniqueTag } from "../../../prisma/seed/factories";
import { readingsWorld, saveSceneText, shown } from "./readings-fixture";

const page = (raw: Record<string, string> = {}) => readingsQuery.parse(raw);

describe("the school's readings page: its own words and its roster's names, searched, paged, corrected, deleted", () => {
  let school: AuthorizedSchoolId;
  let other: AuthorizedSchoolId;
  let teacher: string;
  const ctx = () => ({ schoolId: school, actorId: teacher });
  const saveText = (prompt: string, schoolId: AuthorizedSchoolId = school) => saveSceneText(prompt, schoolId, teacher);

  beforeAll(async () => {
    ({ school, other, teacher } = await readingsWorld());
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("lists a word a teacher corrected in the editor (by whom, from where) before the roster's names; empty for a school without any", async () => {
    expect(await listReadingsPage(other, page())).toEqual({ rows: [], total: 0, pages: 1 });
    await saveText("データの|重複(ちょうふく)に気をつける");
    const { rows, total } = await listReadingsPage(school, page());
    expect(total).toBe(2);
    expect(rows).toMatchObject([
      { base: "重複", reading: "ちょうふく", source: "editor", by: "読売 先生" },
      { base: "読売 先生", reading: "よみうり せんせい", source: "roster", by: null },
    ]);
    expect(rows[0]!.at).toBeInstanceOf(Date);
  });

  it("finds a word by its kanji or its reading, typed in hiragana or katakana; LIKE's signs match themselves", async () => {
    const words = async (q: string) => (await listReadingsPage(school, page({ q }))).rows.map((r) => r.base);
    expect(await words("重")).toEqual(["重複"]);
    expect(await words("ちょう")).toEqual(["重複"]);
    expect(await words("チョウフク")).toEqual(["重複"]);
    expect(await words("よみうり")).toEqual(["読売 先生"]);
    expect(await words("%")).toEqual([]);
    expect(await listReadingsPage(school, page({ q: "ない言葉" }))).toEqual({ rows: [], total: 0, pages: 1 });
  });

  it("pages a long list; a page past the last still counts them all", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `長学園${tag}`, nameKana: "ながくえん" });
    const long = (await createSchool(db(), { academyId: academy.id, name: `長校${tag}`, nameKana: "ながこう" }))
      .id as AuthorizedSchoolId;
    await db().$executeRaw`
      insert into school_readings (school_id, base, reading, updated_at)
      select ${long}::uuid, '語' || n, 'ご', now() - make_interval(secs => n)
      from generate_series(1, ${READINGS_PAGE_SIZE + 5}) as n`;
    const first = await listReadingsPage(long, page());
    expect(first).toMatchObject({ total: READINGS_PAGE_SIZE + 5, pages: 2 });
    expect(first.rows).toHaveLength(READINGS_PAGE_SIZE);
    expect(first.rows[0]).toMatchObject({ base: "語1", source: "editor", by: null }); // the most recent first
    const second = await listReadingsPage(long, page({ page: "2" }));
    expect(second.rows.map((r) => r.base)).toEqual([51, 52, 53, 54, 55].map((n) => `語${n}`));
    expect(await listReadingsPage(long, page({ page: "9" }))).toEqual({
      rows: [],
      total: READINGS_PAGE_SIZE + 5,
      pages: 2,
    });
  });

  it("a corrected reading is the school's from then on, marked as corrected on the page, by whom", async () => {
    await saveText("|重用(ちょうよう)する");
    expect(await correctSchoolReading(ctx(), "重用", "じゅうよう")).toEqual({
      ok: true,
      data: { reading: "じゅうよう" },
    });
    const [row] = (await listReadingsPage(school, page({ q: "重用" }))).rows;
    expect(row).toMatchObject({ base: "重用", reading: "じゅうよう", source: "page", by: "読売 先生" });
    const proposals = await suggestFurigana(school, "重用する");
    expect(proposals.find((p) => p.base === "重用")).toMatchObject({ reading: "じゅうよう", source: "school" });
    // another school's word, or one the school does not have: not found, nothing changed
    expect(await correctSchoolReading({ schoolId: other, actorId: teacher }, "重用", "あ")).toEqual({
      ok: false,
      code: "NOT_FOUND",
    });
    expect(await correctSchoolReading(ctx(), "無い語", "ない")).toMatchObject({ code: "NOT_FOUND" });
  });

  it("a deleted word is no longer proposed with the school's reading; another school cannot delete it", async () => {
    expect(shown(await suggestFurigana(school, "重複を避ける"))).toContain("重複=ちょうふく");
    expect(await deleteSchoolReading(other, "重複")).toEqual({ ok: false, code: "NOT_FOUND" });
    expect(await deleteSchoolReading(school, "重複")).toEqual({ ok: true, data: null });
    expect(shown(await suggestFurigana(school, "重複を避ける"))).toContain("重複=じゅうふく");
    expect(await deleteSchoolReading(school, "重複")).toEqual({ ok: false, code: "NOT_FOUND" });
  });

  it("takes a reading in kana only: katakana and half-width kept as hiragana, anything else refused with its message key", () => {
    expect(readingInput.parse(" チョウフク ")).toBe("ちょうふく");
    expect(readingInput.parse("ｼﾞｭｳ")).toBe("じゅう");
    expect(readingInput.parse("らーめん")).toBe("らーめん");
    const problem = (v: string) => readingInput.safeParse(v).error?.issues[0]?.message;
    expect(problem("")).toBe("readingEmpty");
    expect(problem("  ")).toBe("readingEmpty");
    expect(problem("重複")).toBe("readingNotKana");
    expect(problem("chofuku")).toBe("readingNotKana");
    expect(problem("ちょう ふく")).toBe("readingNotKana");
    expect(problem("あ".repeat(61))).toBe("readingTooLong");
  });
});
