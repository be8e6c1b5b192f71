import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { toKatakana } from "@/features/rostering/server/rules";
import { rosterSetOfAcademy } from "@/features/rostering/server/export";
import { applyRosterImport } from "@/features/rostering/server/commands";
import { createAcademy, uniqueTag } from "../../../prisma/seed/factories";
import { rosterSet as generatedSet } from "../../../tests/support/oneroster-arbitrary";
import { loadFixture } from "../../../tests/support/oneroster-fixture";
import { type SchoolSpec, ownSet, rosterSet } from "../../../tests/support/roster-fixture";

/**
 * Properties over generated academies: any set imports without problems; the same set again
 * changes nothing; the same people renumbered within their 組 (swaps included) and with renamed
 * classes apply without a problem and move nobody; the academy's export imported back changes nothing.
 */
afterAll(async () => {
  await db().$disconnect();
});

const zero = { create: 0, update: 0, move: 0, disable: 0, link: 0 };
const shape = fc.array(fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 2,
});

function build(
  tag: string,
  sizes: number[][],
  order: (n: number) => number[],
  title: (c: number) => string,
): SchoolSpec[] {
  return sizes.map((classes, s) => ({
    sourcedId: `${tag}-s${s}`,
    name: `学校${tag}-${s}`,
    teachers: [],
    classes: classes.map((_, c) => ({
      sourcedId: `${tag}-s${s}c${c}`,
      title: `${(c % 3) + 1}年${title(c)}組`,
      grade: `J${(c % 3) + 1}`,
    })),
    students: classes.flatMap((n, c) => {
      const numbers = order(n);
      return Array.from({ length: n }, (_, i) => ({
        sourcedId: `${tag}-s${s}c${c}p${i}`,
        family: "名簿",
        given: `${i}`,
        kanaFamily: "メイボ",
        kanaGiven: "イチ",
        homeClass: `${tag}-s${s}c${c}`,
        number: numbers[i]!,
        ...(i % 2 ? { email: `p${i}-${s}-${c}-${tag}@school.example` } : {}),
      }));
    }),
  }));
}

describe("OneRoster import properties", () => {
  it("second import, renumbering with swaps, renames and the export's import", async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.integer({ min: 1, max: 5 }), async (sizes, shift) => {
        const tag = uniqueTag();
        const academy = await createAcademy(db(), { name: `P${tag}`, nameKana: "ぴー" });
        const first = await applyRosterImport(
          academy.id,
          rosterSet(
            build(
              tag,
              sizes,
              (n) => Array.from({ length: n }, (_, i) => i + 1),
              (c) => `${c + 1}`,
            ),
          ),
        );
        expect(first.problems).toEqual([]);
        const again = await applyRosterImport(
          academy.id,
          rosterSet(
            build(
              tag,
              sizes,
              (n) => Array.from({ length: n }, (_, i) => i + 1),
              (c) => `${c + 1}`,
            ),
          ),
        );
        expect(
          again.schools.every((s) =>
            [s.students, s.teachers, s.classes].every((c) => JSON.stringify(c) === JSON.stringify(zero)),
          ),
        ).toBe(true);

        // everyone's 番号 rotates within their 組 (each takes a seat another holds now), then the 組 are renamed
        const rotated = (n: number) => Array.from({ length: n }, (_, i) => ((i + shift) % n) + 1);
        for (const title of [(c: number) => `${c + 1}`, (c: number) => String.fromCharCode(65 + c)]) {
          const renumbered = await applyRosterImport(academy.id, rosterSet(build(tag, sizes, rotated, title)));
          expect(renumbered.problems).toEqual([]);
          expect(
            renumbered.schools.every(
              (s) => s.students.move === 0 && s.students.create === 0 && s.students.disable === 0,
            ),
          ).toBe(true);
        }
        const seats = await db().user.findMany({
          where: { school: { academyId: academy.id } },
          select: { sourcedId: true, student: { select: { className: true, number: true } } },
        });
        for (const u of seats) {
          const [, c, i] = /c(\d+)p(\d+)$/.exec(u.sourcedId!)!.map(Number);
          const n = sizes[Number(/-s(\d+)c/.exec(u.sourcedId!)![1])]![c!]!;
          expect(u.student).toEqual({ className: String.fromCharCode(65 + c!), number: rotated(n)[i!] });
        }

        const back = await applyRosterImport(academy.id, (await rosterSetOfAcademy(academy.id))!);
        expect(back.problems).toEqual([]);
        expect(
          back.schools.every((s) =>
            [s.students, s.teachers, s.classes].every((c) => JSON.stringify(c) === JSON.stringify(zero)),
          ),
        ).toBe(true);
      }),
      { numRuns: 6 },
    );
  }, 300_000);
});

/** Each file's rows by sourcedId, without line numbers, readings in katakana as the export writes them. */
function rowsOf(set: RosterSet) {
  const kana = (s: string | null) => (s === null ? null : toKatakana(s));
  const clean = (rows: { sourcedId: string; line: number }[]) =>
    rows.map((r) => ({ ...r, line: 0 })).sort((a, b) => a.sourcedId.localeCompare(b.sourcedId));
  return {
    academicSessions: clean(set.academicSessions),
    orgs: clean(set.orgs),
    courses: clean(set.courses),
    classes: clean(set.classes),
    roles: clean(set.roles),
    enrollments: clean(set.enrollments),
    users: clean(
      set.users.map((u) => ({
        ...u,
        kanaGivenName: kana(u.kanaGivenName),
        kanaFamilyName: kana(u.kanaFamilyName),
        kanaMiddleName: kana(u.kanaMiddleName),
      })),
    ),
  };
}

describe("OneRoster import then export", () => {
  it("an import followed by an export gives back the same rows, for generated sets and the named fixture with every field filled", async () => {
    await fc.assert(
      fc.asyncProperty(generatedSet, async (generated) => {
        const tag = uniqueTag();
        const academy = await createAcademy(db(), { name: `RT${tag}`, nameKana: "あーるてぃー" });
        const set = ownSet(generated, tag);
        const applied = await applyRosterImport(academy.id, set);
        expect(applied.problems).toEqual([]);
        expect(rowsOf((await rosterSetOfAcademy(academy.id))!)).toEqual(rowsOf(set));
      }),
      { numRuns: 8 },
    );
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `RT${tag}`, nameKana: "あーるてぃー" });
    const unique = tag
      .replace(/[^0-9a-f]/gi, "")
      .padStart(4, "0")
      .slice(-4)
      .toLowerCase();
    const files = Object.fromEntries(
      Object.entries(loadFixture("bulk-full")).map(([f, b]) => [
        f,
        new TextEncoder().encode(new TextDecoder().decode(b).replaceAll("-0000-4000-8000-", `-${unique}-4000-8000-`)),
      ]),
    );
    const read = await readRosterPackage(files);
    expect((await applyRosterImport(academy.id, read.set!)).problems).toEqual([]);
    expect(rowsOf((await rosterSetOfAcademy(academy.id))!)).toEqual(rowsOf(read.set!));
  }, 300_000);
});
