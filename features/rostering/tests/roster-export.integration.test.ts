import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/platform/db";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { rosterSetOfAcademy } from "@/features/rostering/server/export";
import { applyRosterImport } from "@/features/rostering/server/commands";
import { createAcademy, createUser, uniqueTag } from "../../../prisma/seed/factories";
import { rosterSet, students } from "../../../tests/support/roster-fixture";

/**
 * The academy as a OneRoster set (docs/oneroster.md "Writing: strict out"). Ids are stored the
 * first time, so two exports name everyone the same; importing an export into the same academy
 * changes nothing.
 */
afterAll(async () => {
  await db().$disconnect();
});

const zero = { create: 0, update: 0, move: 0, disable: 0, link: 0 };

describe("OneRoster export", () => {
  it("exports stable sourcedIds and userMasterIdentifiers, and its import into the same academy changes nothing", async () => {
    const tag = uniqueTag();
    const academy = await createAcademy(db(), { name: `E${tag}`, nameKana: "いー" });
    await applyRosterImport(
      academy.id,
      rosterSet([
        {
          sourcedId: `${tag}-school`,
          name: `東小学校${tag}`,
          classes: [{ sourcedId: `${tag}-c41`, title: "4年1組", grade: "P4", teacher: `${tag}-t` }],
          students: students(tag, `${tag}-c41`, 3),
          teachers: [
            {
              sourcedId: `${tag}-t`,
              family: "田中",
              given: "一",
              kanaFamily: "タナカ",
              kanaGiven: "ハジメ",
              email: `t-${tag}@school.example`,
            },
          ],
        },
      ]),
    );
    const school = await db().school.findFirstOrThrow({ where: { academyId: academy.id }, select: { id: true } });
    // a student added on the product's own screen, in a 組 no roster named
    const own = await createUser(db(), {
      role: "student",
      schoolId: school.id,
      name: "鈴木 一郎",
      nameKana: "すずき いちろう",
      email: `own-${tag}@school.example`,
      student: { grade: 5, className: "2", number: 9 },
    });

    const first = (await rosterSetOfAcademy(academy.id))!;
    const second = (await rosterSetOfAcademy(academy.id, { schoolId: school.id }))!;
    const ids = (s: typeof first) => ({
      users: s.users.map((u) => [u.sourcedId, u.userMasterIdentifier]),
      classes: s.classes.map((c) => c.sourcedId),
      orgs: s.orgs.map((o) => o.sourcedId),
      enrollments: s.enrollments.map((e) => e.sourcedId),
      roles: s.roles.map((r) => r.sourcedId),
    });
    expect(ids(second)).toEqual(ids(first));
    const mine = first.users.find((u) => u.email === `own-${tag}@school.example`)!;
    expect(mine).toMatchObject({
      familyName: "鈴木",
      givenName: "一郎",
      kanaFamilyName: "スズキ",
      kanaGivenName: "イチロウ",
    });
    expect(mine.sourcedId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const home = first.classes.find((c) => c.sourcedId === mine.homeClass)!;
    expect(home).toMatchObject({ title: "5年2組", grades: ["P5"] });
    expect(first.enrollments.find((e) => e.userSourcedId === mine.sourcedId)).toMatchObject({
      classSourcedId: home.sourcedId,
      shussekiNo: 9,
      role: "student",
    });
    expect(first.enrollments.find((e) => e.role === "teacher")).toMatchObject({
      classSourcedId: `${tag}-c41`,
      userSourcedId: `${tag}-t`,
      primary: true,
    });
    expect((await db().user.findUniqueOrThrow({ where: { id: own.id } })).sourcedId).toBe(mine.sourcedId);

    // the export passes the reader's strict Japan Profile checks (年度 title, empty courseCode, enabledUser, primary, names)
    // (this test's roster ids are readable tags, not UUIDs: those problems, and the duplicates of ids the reader dropped, aside)
    const read = await readRosterPackage(zipRosterPackage(first));
    expect(read.problems.filter((p) => p.code !== "fieldUuid" && p.code !== "duplicateId")).toEqual([]);

    const again = await applyRosterImport(academy.id, first);
    expect(again.problems).toEqual([]);
    expect(again.schools.map((s) => [s.students, s.teachers, s.classes])).toEqual([[zero, zero, zero]]);
  }, 120_000);
});
