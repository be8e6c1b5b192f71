import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { saveSceneOrder } from "@/features/activities/server/commands";
import { suggestFurigana } from "@/features/activities/server/furigana-suggest";
import { MAX_SCHOOL_WORDS } from "@/features/activities/shared/furigana-words";
import { createAcademy, createActivityFromTemplate, createSchool, uniqueTag } from "../../../prisma/seed/factories";
import { readingsWorld, saveSceneText, shown } from "./readings-fixture";

/** The proposals as `base=reading` in text order. */

describe("furigana: the school's own word list, from the words its teachers corrected", () => {
  let school: AuthorizedSchoolId;
  let other: AuthorizedSchoolId;
  let teacher: string;
  const listOf = async (schoolId: string) =>
    (
      await db().schoolReading.findMany({
        where: { schoolId },
        select: { base: true, reading: true },
        orderBy: { base: "asc" },
      })
    ).map((r) => `${r.base}=${r.reading}`);
  const saveText = (prompt: string, schoolId: string = school) =>
    saveSceneText(prompt, schoolId as AuthorizedSchoolId, teacher);

  beforeAll(async () => {
    ({ school, other, teacher } = await readingsWorld());
  });
  afterAll(async () => {
    await db().$disconnect();
  });

  it("a teacher corrects 重 in a compound once: the school's next proposal reads it so, another school's does not", async () => {
    // the dictionary reads 重複 じゅうふく
    expect(shown(await suggestFurigana(school, "重複を避ける"))).toEqual(["重複=じゅうふく", "避=さ"]);
    await saveText("データの|重複(ちょうふく)に気をつける");
    expect(await listOf(school)).toEqual(["重複=ちょうふく"]);
    const proposals = await suggestFurigana(school, "重複を避ける");
    expect(shown(proposals)).toEqual(["重複=ちょうふく", "避=さ"]);
    expect(proposals[0]).toMatchObject({ source: "school", check: false });
    expect(shown(await suggestFurigana(other, "重複を避ける"))).toEqual(["重複=じゅうふく", "避=さ"]);
    expect(await listOf(other)).toEqual([]);
  });

  it("a listed word is proposed only where the analyser reads it as a whole word, not inside another", async () => {
    await saveText("|重用(ちょうよう)する");
    expect(await listOf(school)).toContain("重用=ちょうよう");
    // 重用 is not a word of 貴重用品 (貴重 / 用品)
    expect(shown(await suggestFurigana(school, "貴重用品"))).not.toContain("重用=ちょうよう");
  });

  it("remembers a word the proposer marked 「要確認」 or could not read, and proposes it unmarked", async () => {
    const before = await suggestFurigana(school, "渋谷の聚慎に住む");
    expect(before.find((p) => p.base === "渋谷")).toMatchObject({ reading: "しぶや", check: true });
    expect(before.some((p) => p.base.includes("聚"))).toBe(false); // the dictionary has no reading of 聚
    await saveText("|渋谷(しぶや)に|聚慎(しゅうしん)という町がある");
    expect(await listOf(school)).toEqual(expect.arrayContaining(["渋谷=しぶや", "聚慎=しゅうしん"]));
    const after = await suggestFurigana(school, "渋谷の聚慎に住む");
    expect(after.filter((p) => p.source === "school")).toMatchObject([
      { base: "渋谷", reading: "しぶや", check: false },
      { base: "聚慎", reading: "しゅうしん", check: false },
    ]);
  });

  it("learns from an activity's title too", async () => {
    const act = await createActivityFromTemplate(db(), { templateId: "math-linear-equations", schoolId: school });
    const scenes = await db().activityScene.findMany({
      where: { activityId: act.id },
      orderBy: { position: "asc" },
      select: { id: true },
    });
    const ctx = { schoolId: school, actorId: teacher };
    const order = scenes.map((s) => s.id);
    expect(
      await saveSceneOrder(ctx, {
        activityId: act.id,
        version: 1,
        title: "|重版(ちょうはん)の本",
        order,
        groupOrders: {},
      }),
    ).toEqual({ ok: true, data: { version: 2 } });
    expect(await listOf(school)).toContain("重版=ちょうはん");
  });

  it("remembers no ruby read as the proposer reads it, and never a reading that is not kana", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `無学園${tag}`, nameKana: "むがくえん" });
    const quiet = (await createSchool(db(), { academyId: academy.id, name: `無校${tag}`, nameKana: "むこう" })).id;
    await saveText("|重複(じゅうふく)と|体重(たいじゅう)", quiet);
    expect(await listOf(quiet)).toEqual([]);
    // beside a correction in kana, the ones that are not kana are left out (the correction is saved)
    await saveText("|重複(jufuku)と|体重(体じゅう)と|重版(じゅうはん・)と|重ね(かさね1)る、|重用(ちょうよう)", quiet);
    expect(await listOf(quiet)).toEqual(["重用=ちょうよう"]);
  });

  it("keeps at most MAX_SCHOOL_WORDS words a school, the longest unsaved dropped first", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `満学園${tag}`, nameKana: "まんがくえん" });
    const full = (await createSchool(db(), { academyId: academy.id, name: `満校${tag}`, nameKana: "まんこう" })).id;
    await db().$executeRaw`
      insert into school_readings (school_id, base, reading, updated_at)
      select ${full}::uuid, '語' || n, 'ご', now() - make_interval(secs => n)
      from generate_series(1, ${MAX_SCHOOL_WORDS}) as n`;
    await saveText("|重複(ちょうふく)", full);
    const rows = await db().schoolReading.findMany({ where: { schoolId: full }, select: { base: true } });
    expect(rows).toHaveLength(MAX_SCHOOL_WORDS);
    const bases = new Set(rows.map((r) => r.base));
    expect(bases.has("重複")).toBe(true);
    expect(bases.has(`語${MAX_SCHOOL_WORDS}`)).toBe(false); // the oldest
    expect(bases.has(`語${MAX_SCHOOL_WORDS - 1}`)).toBe(true);
  });
});
