/**
 * The bundled library (prisma/content/library, docs/product-design.md "The academy library"): every file is a
 * valid activity with its answer key, readable in every display language, and together they cover the five
 * subjects in 小学校 and 中学校.
 */
import { describe, expect, it } from "vitest";
import { bundledActivityFile, readLibraryFiles } from "@/features/activities/server/library-bundle";
import { isKana } from "@/features/activities/shared/furigana-align";
import type { LibraryFile } from "@/features/activities/shared/library-content-schema";
import { correctIdsOf } from "@/features/scenes/shared/key";
import { parseRichText, type RichNode } from "@/platform/richtext/parse";

const files = await readLibraryFiles();
const TAG_KEYS = new Set(["id", "type", "subject", "grade", "feedback", "actorType"]);

/** Every text a student or teacher reads in a file (title, unit, prompts, options…), as stored markup. */
function textsOf(value: unknown, key = ""): string[] {
  if (typeof value === "string") return TAG_KEYS.has(key) ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((v) => textsOf(v));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => textsOf(v, k));
  return [];
}
const flat = (nodes: RichNode[]): RichNode[] =>
  nodes.flatMap((n) => ("children" in n ? [n, ...flat(n.children)] : [n]));

describe("the bundled library", () => {
  it("every file parses with the activity file's schema, has at least three scenes and its id is its file name", () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const file of files) {
      expect(() => bundledActivityFile(file), file.id).not.toThrow();
      expect(file.scenes.length, file.id).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(files.map((f) => f.title)).size).toBe(files.length);
  });

  it("every question that can have a correct answer has one, and its copies show verdicts after each answer", () => {
    for (const file of files) {
      expect(file.feedback, file.id).toBe("after_answer");
      const keyed = file.scenes.filter((s) => ["single_choice", "multiple_choice", "two_step"].includes(s.type));
      expect(keyed.length, file.id).toBeGreaterThanOrEqual(2);
      for (const scene of keyed) expect(correctIdsOf(scene).length, `${file.id}/${scene.id}`).toBeGreaterThan(0);
      for (const scene of file.scenes.filter((s) => s.type === "single_choice"))
        expect(correctIdsOf(scene), `${file.id}/${scene.id}`).toHaveLength(1);
    }
  });

  it("every kanji has furigana, and every reading is kana: the kana-only display shows no kanji", () => {
    for (const file of files) {
      for (const text of textsOf(file)) {
        const nodes = flat(parseRichText(text));
        const bare = nodes.flatMap((n) => (n.type === "text" ? (n.value.match(/\p{Script=Han}+/gu) ?? []) : []));
        expect(bare, `${file.id}: ${text}`).toEqual([]);
        for (const n of nodes)
          if (n.type === "ruby") expect(isKana(n.reading.replace(/・/g, "")), `${file.id}: ${n.base}`).toBe(true);
      }
    }
  });

  it("covers 国語・算数/数学・理科・社会・英語 in both 小学校 and 中学校, at least three activities each", () => {
    const count = (subject: string, stage: string) =>
      files.filter((f: LibraryFile) => f.subject === subject && f.grade.startsWith(stage)).length;
    for (const subject of ["japanese", "math", "science", "social", "english"])
      for (const stage of ["e", "j"]) expect(count(subject, stage), `${subject} ${stage}`).toBeGreaterThanOrEqual(3);
  });
});
