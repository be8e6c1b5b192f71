import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { checkAcross } from "@/features/rostering/shared/oneroster-cross";
import { ROSTER_FILES } from "@/features/rostering/shared/oneroster-files";
import type { FileMode, RosterSet } from "@/features/rostering/shared/oneroster-model";
import { ProblemList } from "@/features/rostering/shared/oneroster-problems";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { knownRosterRows } from "@/features/rostering/server/queries";
import { rosterSetOfAcademy } from "@/features/rostering/server/export";
import { applyRosterImport } from "@/features/rostering/server/commands";
import { createAcademy, uniqueTag } from "../../../prisma/seed/factories";
import { rosterSet as generatedSet } from "../../../tests/support/oneroster-arbitrary";
import { loadFixture } from "../../../tests/support/oneroster-fixture";
import { ownSet } from "../../../tests/support/roster-fixture";

/**
 * The academy's record of every row it has received (docs/oneroster.md "The sourcedId record"): a later
 * delta's references resolve against rows of any kind sent before (a scheduled class, a course, a role),
 * and a reference sent neither in the set nor before is refused saying so.
 */
afterAll(async () => {
  await db().$disconnect();
});

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A fixture folder with its ids made unique to this run (users' sourcedIds are unique in the whole database). */
function fixture(name: "bulk-full" | "bulk-jhs" | "delta-scheduled", tag: string): Record<string, Uint8Array> {
  const files = loadFixture(name);
  const unique = tag
    .replace(/[^0-9a-f]/gi, "")
    .padStart(4, "0")
    .slice(-4)
    .toLowerCase();
  return Object.fromEntries(
    Object.entries(files).map(([f, bytes]) => [
      f,
      enc.encode(dec.decode(bytes).replaceAll("-0000-4000-8000-", `-${unique}-4000-8000-`)),
    ]),
  );
}

async function read(academyId: string, files: Record<string, Uint8Array>) {
  return readRosterPackage(files, { known: await knownRosterRows(academyId) });
}

/** A new academy with the bulk-full fixture applied (ids of this run). */
async function academyWithFullSet() {
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `記録${tag}`, nameKana: "きろく" });
  const bulk = await read(academy.id, fixture("bulk-full", tag));
  expect(bulk.problems).toEqual([]);
  expect((await applyRosterImport(academy.id, bulk.set!)).applied).toBe(true);
  return { tag, academy, bulk };
}

describe("OneRoster record of received rows", () => {
  it("a delta enrolling a new student in a scheduled class sent in an earlier bulk set applies; the enrollment is recorded", async () => {
    const { tag, academy } = await academyWithFullSet();
    const kinds = await db().rosterRecord.groupBy({
      by: ["kind"],
      where: { academyId: academy.id },
      _count: true,
      orderBy: { kind: "asc" },
    });
    expect(Object.fromEntries(kinds.map((k) => [k.kind, k._count]))).toEqual({
      academicSessions: 1,
      classes: 4,
      courses: 4,
      enrollments: 8,
      orgs: 2,
      roles: 8,
      users: 6,
    });

    const delta = await read(academy.id, fixture("delta-scheduled", tag));
    expect(delta.problems).toEqual([]);
    const applied = await applyRosterImport(academy.id, delta.set!);
    expect(applied.problems).toEqual([]);
    expect(applied.schools[0]!.students).toMatchObject({ create: 1 });
    const kid = await db().user.findFirstOrThrow({
      where: { sourcedId: delta.set!.users[0]!.sourcedId },
      include: { student: true },
    });
    expect(kid.student).toMatchObject({ grade: 1, className: "1", number: 3 });
    const scheduled = delta.set!.enrollments[1]!;
    expect(
      await db().rosterRecord.findUniqueOrThrow({
        where: {
          academyId_kind_sourcedId: { academyId: academy.id, kind: "enrollments", sourcedId: scheduled.sourcedId },
        },
      }),
    ).toMatchObject({
      status: "active",
      dateLastModified: "2026-06-01T00:00:00.000Z",
      profile: "1.2",
      fields: {
        classSourcedId: scheduled.classSourcedId,
        role: "student",
        primary: false,
        "metadata.jp.PublicFlg": true,
      },
    });
  }, 120_000);

  it("a reference sent neither in the set nor before is refused, saying so; another academy's rows do not resolve", async () => {
    const { tag } = await academyWithFullSet();
    const other = await createAcademy(db(), { name: `他${tag}`, nameKana: "た" });

    const refused = await read(other.id, fixture("delta-scheduled", tag));
    expect(refused.set).toBeNull();
    const missing = refused.problems.filter(
      (p) => p.code === "missingReference" && p.file === "enrollments.csv" && p.column === "classSourcedId",
    );
    expect(missing).toHaveLength(2);
    expect(missing[1]!.message).toContain("は、この名簿の classes.csv にも、前に送られた名簿にもありません。");
  }, 120_000);

  it("for generated sets: a delta enrolling a new student in every class sent before (homeroom and subject) resolves and applies", async () => {
    await fc.assert(
      fc.asyncProperty(generatedSet, async (generated) => {
        const tag = uniqueTag();
        const academy = await createAcademy(db(), { name: `記録${tag}`, nameKana: "きろく" });
        const set = ownSet(generated, tag);
        expect((await applyRosterImport(academy.id, set)).problems).toEqual([]);

        const school = set.orgs.find((o) => o.type === "school")!.sourcedId;
        const home = set.classes.find((c) => c.classType === "homeroom")!;
        const id = randomUUID();
        const at = { status: "active" as const, dateLastModified: "2026-06-01T00:00:00.000Z" };
        const files = Object.fromEntries(ROSTER_FILES.map((f) => [f, "absent"])) as Record<
          (typeof ROSTER_FILES)[number],
          FileMode
        >;
        files.users = files.roles = files.enrollments = "delta";
        const delta: RosterSet = {
          manifest: { ...set.manifest, files },
          academicSessions: [],
          orgs: [],
          courses: [],
          classes: [],
          users: [
            {
              ...set.users.at(-1)!,
              ...at,
              sourcedId: id,
              line: 2,
              username: `${id}@example.jp`,
              email: null,
              userMasterIdentifier: null,
              homeClass: home.sourcedId,
            },
          ],
          roles: [
            {
              ...set.roles.at(-1)!,
              ...at,
              sourcedId: randomUUID(),
              line: 2,
              userSourcedId: id,
              roleType: "primary",
              role: "student",
              orgSourcedId: school,
            },
          ],
          enrollments: set.classes
            .map((c, i) => ({
              ...at,
              sourcedId: randomUUID(),
              line: i + 2,
              classSourcedId: c.sourcedId,
              schoolSourcedId: school,
              userSourcedId: id,
              role: "student" as const,
              primary: false,
              beginDate: null,
              endDate: null,
              shussekiNo: null,
              publicFlg: null,
            }))
            .filter(
              (e) =>
                e.classSourcedId === home.sourcedId ||
                set.classes.find((c) => c.sourcedId === e.classSourcedId)!.classType === "scheduled",
            ),
        };
        const problems = new ProblemList();
        checkAcross(delta, files, problems, await knownRosterRows(academy.id));
        expect(problems.items).toEqual([]);
        const applied = await applyRosterImport(academy.id, delta);
        expect(applied.problems).toEqual([]);
        expect(applied.schools[0]!.students.create).toBe(1);
        expect(
          await db().rosterRecord.count({
            where: { academyId: academy.id, kind: "enrollments", fields: { path: ["userSourcedId"], equals: id } },
          }),
        ).toBe(delta.enrollments.length);
      }),
      { numRuns: 6 },
    );
  }, 300_000);

  it("a users-only delta (a new family name, a new reading) applies after the bulk set with every field filled", async () => {
    const { tag, academy, bulk } = await academyWithFullSet();
    const kid = bulk.set!.users.find((u) => u.grades[0] === "J2")!;
    const files = fixture("delta-scheduled", tag);
    const header = dec.decode(fixture("bulk-full", tag)["users.csv"]!).split("\r\n")[0]!;
    const row = dec
      .decode(fixture("bulk-full", tag)["users.csv"]!)
      .split("\r\n")
      .find((l) => l.includes(kid.sourcedId))!
      .replace('"","",', '"active","2026-07-01T00:00:00Z",')
      .replace('"高橋"', '"渡辺"')
      .replace('"タカハシ"', '"ワタナベ"');
    const manifest = dec
      .decode(files["manifest.csv"]!)
      .replace('"file.roles","delta"', '"file.roles","absent"')
      .replace('"file.enrollments","delta"', '"file.enrollments","absent"');
    const delta = await read(academy.id, {
      "manifest.csv": enc.encode(manifest),
      "users.csv": enc.encode(`${header}\r\n${row}\r\n`),
    });
    expect(delta.problems).toEqual([]);
    const applied = await applyRosterImport(academy.id, delta.set!);
    expect(applied.problems).toEqual([]);
    expect(
      await db().user.findFirstOrThrow({ where: { sourcedId: kid.sourcedId }, include: { student: true } }),
    ).toMatchObject({
      name: '渡辺 健, "ケン"',
      nameKana: "わたなべ けん",
      student: { grade: 2, className: "1", number: 1 },
    });
  }, 120_000);

  it("a later bulk set that no longer names a subject class, a role or an enrollment marks them deleted: they no longer resolve nor export", async () => {
    const { tag, academy, bulk: full } = await academyWithFullSet();
    const plain = await read(academy.id, fixture("bulk-jhs", tag));
    expect((await applyRosterImport(academy.id, plain.set!)).applied).toBe(true);

    const gone = full.set!.classes.find((c) => c.classType === "scheduled")!.sourcedId;
    expect(
      await db().rosterRecord.findUniqueOrThrow({
        where: { academyId_kind_sourcedId: { academyId: academy.id, kind: "classes", sourcedId: gone } },
      }),
    ).toMatchObject({ status: "tobedeleted" });
    expect((await knownRosterRows(academy.id))("classes", gone)).toBe(false);
    const exported = (await rosterSetOfAcademy(academy.id))!;
    const ids = (rows: { sourcedId: string }[]) => rows.map((r) => r.sourcedId).sort();
    for (const file of ["classes", "courses", "roles", "enrollments"] as const)
      expect(ids(exported[file])).toEqual(ids(plain.set![file]));
  }, 120_000);
});
