import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { DisplayLanguage } from "@/platform/i18n/languages";
import { csvEncoder } from "@/features/results/shared/csv-encoding";
import { researchHeader, researchRows, resultsCsv } from "@/features/results/server/export-queries";
import { activityStats } from "@/features/results/server/stats";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { parseCsv } from "@/features/people/shared/csv";
import { createResponse, createUser } from "../../../prisma/seed/factories";
import { dissolveActivity, twoSchools } from "../../../tests/support/two-schools";

const KANJI = /\p{Script=Han}/u;
const MARKUP = /[|`]|\(.*[ぁ-ん]\)/u;
let school: AuthorizedSchoolId;
let activity: string;
let scenes: { id: string; position: number }[];
let student: string;

beforeAll(async () => {
  const world = await twoSchools();
  const tag = world.tag;
  school = world.school.id as AuthorizedSchoolId;
  ({ activity, scenes } = await dissolveActivity(school));
  student = (
    await createUser(db(), {
      role: "student",
      email: `c-${tag}@t.example`,
      schoolId: school,
      name: "書出 太郎",
      student: { grade: 2, className: "3", number: 4 },
    })
  ).id;
  await createResponse(db(), {
    activityId: activity,
    sceneId: scenes[1]!.id,
    userId: student,
    scenePosition: 1,
    answer: { first: "more", second: "sure", reason: "=1+1" },
  });
  await createResponse(db(), {
    activityId: activity,
    sceneId: scenes[2]!.id,
    userId: student,
    scenePosition: 2,
    answer: { choice: "cloudy" },
  });
  // 2026-11-24 09:05:00 in Tokyo
  await db().response.updateMany({
    where: { userId: student },
    data: { createdAt: new Date("2026-11-24T00:05:00Z"), updatedAt: new Date("2026-11-24T00:05:00Z") },
  });
});
afterAll(async () => {
  await db().$disconnect();
});

const records = (text: string) => parseCsv(text.replace(/^\uFEFF/, "")).map((r) => r.fields);

async function research(lang: DisplayLanguage, pseudonymous = false) {
  let text = "";
  for await (const chunk of researchRows(school, activity, pseudonymous, lang)) text += chunk;
  return { header: researchHeader(pseudonymous, lang), rows: records(text) };
}

describe("CSV exports in the user's language", () => {
  it("results CSV: headers and labels from the display language's catalogue (kana without kanji, furigana as plain text), scenes from 1", async () => {
    const stats = (await activityStats(school, activity, {}))!;
    const ja = records(resultsCsv(stats, "ja"));
    expect(ja[0]!.join(",")).toMatch(KANJI);
    expect(ja[0]).not.toContain("scene");
    expect(ja.some((r) => r.includes("overview") || r.includes("two_step") || r.includes("answered"))).toBe(false);
    // the choice scene (third) is numbered 3, with its option's label as text, not its id
    const cloudy = ja.find((r) => r[0] === "3" && r.some((c) => c.startsWith("にごっていて、底に")));
    expect(cloudy).toBeDefined();
    expect(ja.some((r) => r.includes("cloudy"))).toBe(false);
    for (const lang of ["ja-ruby", "ja-kana"] as const) {
      const rows = records(resultsCsv(stats, lang));
      expect(rows.flat().join("\n")).not.toMatch(MARKUP);
      if (lang === "ja-kana") expect(rows[0]!.join(",")).not.toMatch(KANJI);
    }
  });

  it("research CSV: Japanese header, option labels instead of ids, scene numbers from 1, Tokyo time with its offset; the pseudonymous one keeps no seat or id", async () => {
    const { header, rows } = await research("ja");
    expect(header.join(",")).toMatch(KANJI);
    expect(header).not.toContain("student_id");
    const col = (name: string) => header.indexOf(name);
    const choice = rows.find((r) => r.some((c) => c.startsWith("にごっていて")))!;
    expect(choice).toBeDefined();
    expect(choice).not.toContain("cloudy");
    expect(choice[col("シーン")]).toBe("3");
    expect(choice[col("回答した日時")]).toBe("2026-11-24 09:05:00+09:00");
    const two = rows.find((r) => r[col("シーン")] === "2")!;
    expect(two[col("1つ目の選択")]).toBe("110gより重くなる");
    expect(two[col("理由・記述")]).toBe("'=1+1");

    const kana = await research("ja-kana");
    expect(kana.header.join(",")).not.toMatch(KANJI);
    expect(kana.rows.flat().join("\n")).toContain("110gよりおもくなる");

    const pseudo = await research("ja", true);
    expect(pseudo.header).not.toContain("出席番号");
    expect(pseudo.rows.flat().join(",")).not.toContain(student);
    expect(pseudo.rows.every((r) => r.length === pseudo.header.length)).toBe(true);
  });

  it("encodings: UTF-8 with a BOM by default; Shift_JIS (Windows-31J) on request, where a character it lacks becomes 〓 and never fails", () => {
    const utf8 = csvEncoder("utf8");
    const first = utf8.encode("場面\r\n");
    expect([...first.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect([...utf8.encode("x")]).toEqual([0x78]);
    expect(utf8.contentType).toBe("text/csv; charset=utf-8");

    const sjis = csvEncoder("sjis");
    expect(sjis.contentType).toBe("text/csv; charset=Shift_JIS");
    const bytes = sjis.encode("髙橋①、〜−𠮷田😀,あ\r\n");
    expect(bytes[0]).not.toBe(0xef);
    expect(iconv.decode(Buffer.from(bytes), "cp932")).toBe("髙橋①、～－〓田〓,あ\r\n");
  });
});
