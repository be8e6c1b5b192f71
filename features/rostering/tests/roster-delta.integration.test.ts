import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "../../../tests/support/admin-run";
import { freshDatabase } from "../../../tests/support/helpers";

/**
 * Keeping a 学習eポータル in step from our side: a bulk export in the receiver's profile, then
 * `--since` deltas (changed rows active, people disabled since tobedeleted), each applied by our
 * own importer to a second database, which ends in the same state as the first.
 */
const a = freshDatabase("roster_delta_a");
const b = freshDatabase("roster_delta_b");
const roster = (db: { url: string }, args: string[]) => runScript("tools/cli/roster.ts", db.url, args);
const BULK = "tests/fixtures/oneroster/bulk-jhs";
const DELTA = "tests/fixtures/oneroster/delta-jhs";
const ACADEMY = "まなびや市";

const csv = (dir: string, file: string) => readFileSync(path.join(dir, file), "utf8").split("\r\n").slice(0, -1);
const manifestOf = (dir: string) =>
  Object.fromEntries(
    csv(dir, "manifest.csv")
      .slice(1)
      .map((l) => l.slice(1, -1).split('","') as [string, string]),
  );

/** What a school sees of its roster: schools, 組 with their 担任, people with their 年・組・番号. */
async function state(db: typeof a) {
  const schools = await db.prisma.school.findMany({
    select: { sourcedId: true, name: true },
    orderBy: { sourcedId: "asc" },
  });
  const classes = await db.prisma.rosterClass.findMany({
    select: {
      sourcedId: true,
      title: true,
      grade: true,
      gradeCode: true,
      className: true,
      classCode: true,
      homeroomTeacher: { select: { sourcedId: true } },
    },
    orderBy: { sourcedId: "asc" },
  });
  const users = await db.prisma.user.findMany({
    where: { role: { in: ["student", "teacher"] } },
    select: {
      sourcedId: true,
      role: true,
      name: true,
      nameKana: true,
      email: true,
      disabled: true,
      userMasterIdentifier: true,
      student: { select: { grade: true, className: true, number: true } },
    },
    orderBy: { sourcedId: "asc" },
  });
  return { schools, classes, users };
}

describe("roster export --profile and --since", () => {
  it("bulk in the chosen profile, then a delta since a time, applied by our importer elsewhere, gives the same state", async () => {
    await a.prisma.academy.create({ data: { name: ACADEMY, nameKana: "まなびやし" } });
    await b.prisma.academy.create({ data: { name: ACADEMY, nameKana: "まなびやし" } });
    const imported = await roster(a, ["import", BULK, "--academy", ACADEMY]);
    expect(imported.code, imported.err).toBe(0);
    expect(await a.prisma.academy.findFirstOrThrow({ select: { rosterProfile: true } })).toEqual({
      rosterProfile: "1.2",
    });

    const dir = mkdtempSync(path.join(tmpdir(), "roster-delta-"));
    const bulk = path.join(dir, "bulk");
    const bulkRun = await roster(a, ["export", bulk, "--academy", ACADEMY, "--profile", "1.2_JP"]);
    expect(bulkRun.code, bulkRun.err).toBe(0);
    expect(manifestOf(bulk)).toMatchObject({
      "oneroster.version": "1.2_JP",
      "file.users": "bulk",
      "file.enrollments": "bulk",
    });
    expect(csv(bulk, "enrollments.csv")[0]!.endsWith(",metadata.jp.shussekiNo,metadata.jp.publicFlg")).toBe(true);
    expect(csv(bulk, "users.csv")[0]!.split(",")).toHaveLength(29);
    const intoB = await roster(b, ["import", bulk, "--academy", ACADEMY]);
    expect(intoB.code, intoB.out + intoB.err).toBe(0);
    expect(await state(b)).toEqual(await state(a));
    expect(await b.prisma.academy.findFirstOrThrow({ select: { rosterProfile: true } })).toEqual({
      rosterProfile: "1.2_JP",
    });

    // after the bulk: a delta set from the school's office (one newcomer, one leaver; 29-column users and the K-12
    // profile's lower-case enrollment columns: read as 1.2_JP), and a 番号 changed here
    const since = new Date();
    await new Promise((r) => setTimeout(r, 20));
    const changed = await roster(a, ["import", DELTA, "--academy", ACADEMY]);
    expect(changed.code, changed.err).toBe(0);
    const renumbered = await a.prisma.user.findFirstOrThrow({
      where: { sourcedId: "50000000-0000-4000-8000-000000000012" },
      select: { id: true },
    });
    await a.prisma.studentDetail.update({ where: { userId: renumbered.id }, data: { number: 9 } });

    const delta = path.join(dir, "delta");
    const deltaRun = await roster(a, ["export", delta, "--academy", ACADEMY, "--since", since.toISOString()]);
    expect(deltaRun.code, deltaRun.err).toBe(0);
    expect(await a.prisma.academy.findFirstOrThrow({ select: { rosterProfile: true } })).toEqual({
      rosterProfile: "1.2_JP",
    });
    // no --profile: the profile of the academy's last imported set (the office's delta)
    expect(manifestOf(delta)).toMatchObject({
      "oneroster.version": "1.2_JP",
      "file.users": "delta",
      "file.roles": "delta",
      "file.enrollments": "delta",
      "file.userProfiles": "absent",
    });
    const users = csv(delta, "users.csv")
      .slice(1)
      .map((l) => l.slice(1, -1).split('","'));
    expect(users.map((u) => [u[0], u[1]]).sort()).toEqual([
      ["50000000-0000-4000-8000-000000000012", "active"],
      ["50000000-0000-4000-8000-000000000014", "tobedeleted"],
      ["50000000-0000-4000-8000-000000000015", "active"],
    ]);
    for (const u of users) expect(new Date(u[2]!).getTime()).toBeGreaterThanOrEqual(since.getTime());
    expect(readdirSync(delta).sort()).toEqual([
      "academicSessions.csv",
      "classes.csv",
      "courses.csv",
      "enrollments.csv",
      "manifest.csv",
      "orgs.csv",
      "roles.csv",
      "users.csv",
    ]);
    expect(csv(delta, "classes.csv")).toHaveLength(1); // no 組 changed: the header only

    const deltaIntoB = await roster(b, ["import", delta, "--academy", ACADEMY, "--json"]);
    expect(deltaIntoB.code, deltaIntoB.out + deltaIntoB.err).toBe(0);
    expect(JSON.parse(deltaIntoB.out.trimEnd().split("\n").at(-1)!).schools[0].students).toMatchObject({
      create: 1,
      update: 1,
      disable: 1,
    });
    expect(await state(b)).toEqual(await state(a));

    // nothing changed since: an empty delta, which changes nothing
    const later = new Date();
    await new Promise((r) => setTimeout(r, 20));
    const empty = path.join(dir, "empty");
    expect((await roster(a, ["export", empty, "--academy", ACADEMY, "--since", later.toISOString()])).code).toBe(0);
    expect(csv(empty, "users.csv")).toHaveLength(1);
    expect((await roster(b, ["import", empty, "--academy", ACADEMY])).code).toBe(0);
    expect(await state(b)).toEqual(await state(a));
  }, 300_000);

  it("a profile or time it does not know is bad usage (exit 2), and import takes neither", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "roster-delta-"));
    expect((await roster(a, ["export", path.join(dir, "x"), "--academy", ACADEMY, "--profile", "1.3"])).code).toBe(2);
    expect((await roster(a, ["export", path.join(dir, "x"), "--academy", ACADEMY, "--since", "yesterday"])).code).toBe(
      2,
    );
    expect((await roster(a, ["import", BULK, "--academy", ACADEMY, "--profile", "1.2"])).code).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
  }, 300_000);
});
