import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { readRosterPackage } from "@/lib/oneroster/read";
import { knownRosterRows } from "@/lib/roster/data";
import { applyRosterImport } from "@/lib/roster/mutations";
import { createAcademy, uniqueTag } from "../../prisma/seed/factories";
import { loadFixture } from "../unit/oneroster-fixture";

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
function fixture(name: "bulk-full" | "delta-scheduled", tag: string): Record<string, Uint8Array> {
  const files = loadFixture(name);
  const unique = tag.replace(/[^0-9a-f]/gi, "").padStart(4, "0").slice(-4).toLowerCase();
  return Object.fromEntries(Object.entries(files).map(([f, bytes]) => [f, enc.encode(dec.decode(bytes).replaceAll("-0000-4000-8000-", `-${unique}-4000-8000-`))]));
}

async function read(academyId: string, files: Record<string, Uint8Array>) {
  return readRosterPackage(files, { known: await knownRosterRows(academyId) });
}

describe("OneRoster record of received rows", () => {
  it("a delta enrolling a new student in a scheduled class sent in an earlier bulk set applies; the enrollment is recorded", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `記録${tag}`, nameKana: "きろく" });
    const bulk = await read(academy.id, fixture("bulk-full", tag));
    expect(bulk.problems).toEqual([]);
    expect((await applyRosterImport(academy.id, bulk.set!)).applied).toBe(true);
    const kinds = await db().rosterRecord.groupBy({ by: ["kind"], where: { academyId: academy.id }, _count: true, orderBy: { kind: "asc" } });
    expect(Object.fromEntries(kinds.map((k) => [k.kind, k._count]))).toEqual({ academicSessions: 1, classes: 4, courses: 4, enrollments: 8, orgs: 2, roles: 8, users: 6 });

    const delta = await read(academy.id, fixture("delta-scheduled", tag));
    expect(delta.problems).toEqual([]);
    const applied = await applyRosterImport(academy.id, delta.set!);
    expect(applied.problems).toEqual([]);
    expect(applied.schools[0]!.students).toMatchObject({ create: 1 });
    const kid = await db().user.findFirstOrThrow({ where: { sourcedId: delta.set!.users[0]!.sourcedId }, include: { student: true } });
    expect(kid.student).toMatchObject({ grade: 1, className: "1", number: 3 });
    const scheduled = delta.set!.enrollments[1]!;
    expect(await db().rosterRecord.findUniqueOrThrow({ where: { academyId_kind_sourcedId: { academyId: academy.id, kind: "enrollments", sourcedId: scheduled.sourcedId } } }))
      .toMatchObject({ status: "active", dateLastModified: "2026-06-01T00:00:00.000Z", profile: "1.2", fields: { classSourcedId: scheduled.classSourcedId, role: "student", primary: false, "metadata.jp.PublicFlg": true } });
  }, 120_000);

  it("a reference sent neither in the set nor before is refused, saying so; another academy's rows do not resolve", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `記録${tag}`, nameKana: "きろく" });
    const other = await createAcademy(db(), { name: `他${tag}`, nameKana: "た" });
    const bulk = await read(academy.id, fixture("bulk-full", tag));
    expect((await applyRosterImport(academy.id, bulk.set!)).applied).toBe(true);

    const refused = await read(other.id, fixture("delta-scheduled", tag));
    expect(refused.set).toBeNull();
    const missing = refused.problems.filter((p) => p.code === "missingReference" && p.file === "enrollments.csv" && p.column === "classSourcedId");
    expect(missing).toHaveLength(2);
    expect(missing[1]!.message).toContain("は、この名簿の classes.csv にも、前に送られた名簿にもありません。");
  }, 120_000);
});
