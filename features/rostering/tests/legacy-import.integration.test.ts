import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkCode, checkPassword } from "@/platform/auth/credentials";
import { verifyPassword } from "@/platform/auth/password";
import { createPrismaClient } from "@/platform/db/client";
import { db } from "@/platform/db";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { readLegacyExport, readSchoolAcademyMap } from "@/features/rostering/shared/legacy-format";
import { type ImportOptions, runImport } from "@/features/rostering/server/legacy-import";
import { decryptCode } from "@/platform/auth/signin-code-crypto";
import { dropDatabase, emptyDatabase, freshDatabase, TEST_SIGNIN_CODE_KEY } from "../../../tests/support/helpers";
import { FIXTURES, fixture, generateExport, passwordOf } from "../../../tests/fixtures/legacy-export";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);

function exportOf(json: unknown) {
  const read = readLegacyExport(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems.slice(0, 5)));
  return read.data;
}

async function importJson(prisma: PrismaClient, json: unknown, options: Partial<ImportOptions> = {}) {
  const result = await runImport(prisma, exportOf(json), {
    dryRun: false,
    signinCodeKey: TEST_SIGNIN_CODE_KEY,
    ...options,
  });
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 5)));
  return result;
}

/** Everything an import can write, row by row (to show that a run wrote nothing). */
async function dump(prisma: PrismaClient) {
  const q = (sql: string) => prisma.$queryRawUnsafe<Record<string, unknown>[]>(sql);
  return JSON.stringify({
    academies: await q(`select * from academies order by id`),
    schools: await q(`select * from schools order by id`),
    users: await q(`select * from users order by id`),
    details: await q(`select * from student_details order by user_id`),
    codes: await q(`select id, user_id, revoked_at from signin_codes order by id`),
    records: await q(`select * from legacy_records order by kind, legacy_id`),
  });
}

const FIXTURE_PASSWORDS = {
  "ito.manager": "Mgr-pass-1!",
  "kato.teacher": "Kato-pass-2",
  aoki: "aoki-1234",
  baba: "baba-5678",
  endo: "endo-pass",
} as const;
const mail = (local: string) => `${local}@legacy.example`;

describe("legacy import of the committed fixture (every timestamp form, missing role documents, no passwords)", () => {
  const prisma = () => db();
  const user = (legacyId: string) =>
    prisma().user.findUniqueOrThrow({
      where: { legacyId },
      select: {
        id: true,
        email: true,
        role: true,
        name: true,
        nickname: true,
        passwordHash: true,
        createdAt: true,
        schoolId: true,
        academyId: true,
        student: true,
      },
    });

  afterAll(async () => {
    await db().$disconnect();
  });
  /** Imports the fixture and checks that no row changed. */
  const importWritingNothing = async (options: Partial<ImportOptions> = {}) => {
    const before = await dump(prisma());
    const result = await importJson(prisma(), fixture("export.json"), options);
    expect(await dump(prisma())).toBe(before);
    return result;
  };

  it("a dry run reports the plan and writes nothing", async () => {
    const result = await importWritingNothing({ dryRun: true });
    expect([result.counts.academies.created, result.counts.schools.created, result.counts.users]).toEqual([
      1,
      2,
      { created: 8, updated: 0, unchanged: 0, skipped: 2 },
    ]);
    expect(result.codesIssued).toBe(5);
  });

  it("imports academies, schools and people with their timestamps, hashed passwords, sign-in codes and a report", async () => {
    const before = Date.now();
    const result = await importJson(prisma(), fixture("export.json"));
    const after = Date.now();
    expect(result.counts.users).toEqual({ created: 8, updated: 0, unchanged: 0, skipped: 2 });
    expect(result.passwordsSet).toBe(5);

    const academy = await prisma().academy.findUniqueOrThrow({ where: { legacyId: "acad-sakura" } });
    expect(academy.name).toBe("さくら学園"); // from the managers' groupName: the academy document has no name
    const kita = await prisma().school.findUniqueOrThrow({ where: { legacyId: "sch-kita" } });
    const minami = await prisma().school.findUniqueOrThrow({ where: { legacyId: "sch-minami" } });
    expect([kita.name, kita.academyId, minami.name, minami.nameKana, minami.academyId]).toEqual([
      "北小学校",
      academy.id,
      "南中学校",
      "みなみちゅうがっこう",
      academy.id,
    ]);
    expect(minami.createdAt.getTime()).toBe(1_600_000_000_000);

    // every timestamp form of docs/requirements.md §3
    expect((await user("mgr-ito")).createdAt.getTime()).toBe(1_650_000_000_250); // export tool wrapper around {_seconds,_nanoseconds}
    expect((await user("tch-kato")).createdAt.getTime()).toBe(1_660_000_000_500); // {seconds,nanoseconds}
    expect((await user("tch-mori")).createdAt.toISOString()).toBe("2023-04-01T00:00:00.000Z"); // ISO with an offset
    expect((await user("stu-aoki")).createdAt.getTime()).toBe(1_700_000_000_000); // epoch-ms string
    expect((await user("stu-baba")).createdAt.getTime()).toBe(1_700_000_001_000); // number
    expect((await user("stu-endo")).createdAt.getTime()).toBe(1_690_000_000_000); // {_seconds,_nanoseconds}
    const doi = await user("stu-doi");
    expect(doi.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5); // missing → now
    expect(doi.createdAt.getTime()).toBeLessThanOrEqual(after + 5);

    // the merged-profile rule: no role document → e-mail and role only
    expect(doi).toMatchObject({
      email: mail("doi"),
      role: "student",
      name: null,
      nickname: null,
      passwordHash: null,
      schoolId: kita.id,
    });
    expect(result.plan.profileMissing).toEqual(["users/stu-doi"]);

    // passwords: only argon2id hashes, and they sign in; no password → none
    for (const [local, password] of Object.entries(FIXTURE_PASSWORDS)) {
      const u = await prisma().user.findUniqueOrThrow({
        where: { email: mail(local) },
        select: { id: true, passwordHash: true },
      });
      expect(u.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await checkPassword({ email: mail(local).toUpperCase(), password }, "198.51.100.10")).toMatchObject({
        ok: true,
        user: { id: u.id },
      });
      expect(await checkPassword({ email: mail(local), password: `${password}x` }, "198.51.100.10")).toMatchObject({
        ok: false,
        code: "wrongPassword",
      });
    }
    const stored = await dump(prisma());
    for (const password of [...Object.values(FIXTURE_PASSWORDS), "ghost-pass"]) expect(stored).not.toContain(password);
    expect(result.plan.withoutPassword).toEqual(["users/stu-chiba", "users/stu-doi", "users/tch-mori"]);
    for (const id of ["stu-chiba", "tch-mori"]) expect((await user(id)).passwordHash).toBeNull();

    // students: no class yet, counterbalance groups that fit Manabiya, one code each that signs in
    const aoki = await user("stu-aoki");
    expect(aoki.student).toMatchObject({ grade: null, className: null, number: null, counterbalanceGroup: "A" });
    expect((await user("stu-baba")).student?.counterbalanceGroup).toBe("B");
    expect((await user("stu-chiba")).student?.counterbalanceGroup).toBeNull();
    expect(result.plan.groupsNotImported).toEqual([
      { path: "schools/sch-kita/students/stu-chiba", value: "group-7" },
      { path: "schools/sch-minami/students/stu-endo", value: "2" },
    ]);
    for (const id of ["stu-aoki", "stu-baba", "stu-chiba", "stu-doi", "stu-endo"]) {
      const u = await user(id);
      const codes = await prisma().signinCode.findMany({
        where: { userId: u.id },
        select: { codeEncrypted: true, revokedAt: true },
      });
      expect(codes).toHaveLength(1);
      expect(
        await checkCode(decryptCode(codes[0]!.codeEncrypted, TEST_SIGNIN_CODE_KEY), "198.51.100.11"),
      ).toMatchObject({ ok: true, user: { id: u.id } });
    }
    expect(await prisma().signinCode.count({ where: { user: { legacyId: { in: ["tch-kato", "mgr-ito"] } } } })).toBe(0);

    // skipped, with reasons
    expect(result.plan.skipped).toEqual([
      { path: "users/stu-fujii", reason: "same e-mail as users/stu-aoki" },
      { path: "schools/sch-minami/students/stu-ghost", reason: expect.stringContaining("no users document") },
    ]);
    expect(await prisma().user.count({ where: { OR: [{ legacyId: "stu-fujii" }, { email: mail("ghost") }] } })).toBe(0);
    const audit = await prisma().auditLog.findFirst({ where: { action: "legacy.import" }, orderBy: { id: "desc" } });
    expect(JSON.stringify(audit?.meta)).toContain('"created":8');
  });

  it("re-running the same export changes nothing, even after edits in Manabiya; a password or code set there is never replaced", async () => {
    const aoki = await user("stu-aoki");
    // a teacher edits a nickname, resets a password and replaces a card after the import
    await prisma().user.update({ where: { id: aoki.id }, data: { nickname: "はなちゃん" } });
    const chiba = await user("stu-chiba");
    await prisma().user.update({ where: { id: chiba.id }, data: { passwordHash: "$argon2id$set-in-manabiya" } });
    await prisma().signinCode.updateMany({ where: { userId: aoki.id }, data: { revokedAt: new Date() } });

    const result = await importWritingNothing();
    expect([result.counts.academies.unchanged, result.counts.schools.unchanged, result.counts.users]).toEqual([
      1,
      2,
      { created: 0, updated: 0, unchanged: 8, skipped: 2 },
    ]);
    expect(result.codesIssued).toBe(0);
  });

  it("a later export updates the fields that changed and adds new people, without duplicating anyone or replacing passwords", async () => {
    const later = fixture("export.json") as {
      __collections__: Record<
        string,
        Record<
          string,
          { __collections__?: Record<string, Record<string, Record<string, unknown>>> } & Record<string, unknown>
        >
      >;
    };
    const root = later.__collections__;
    const kitaStudents = root.schools!["sch-kita"]!.__collections__!.students!;
    kitaStudents["stu-baba"]!.name = "馬場 太一";
    kitaStudents["stu-aoki"]!.password = "a-new-legacy-password";
    kitaStudents["stu-aoki"]!.nickName = "はなこ２";
    root.schools!["sch-minami"]!.__collections__!.students!["stu-endo"]!.counterbalanceGroupId = "b";
    root.users!["stu-goto"] = {
      email: "goto@legacy.example",
      groupId: "sch-minami",
      groupType: "school",
      role: "student",
      createdAt: "1710000000000",
    };
    root.schools!["sch-minami"]!.__collections__!.students!["stu-goto"] = {
      email: "goto@legacy.example",
      name: "後藤 次郎",
      password: "goto-pass",
    };

    const result = await importJson(prisma(), later);
    expect(result.counts.users).toEqual({ created: 1, updated: 3, unchanged: 5, skipped: 2 });
    const changes = Object.fromEntries(
      result.plan.users.filter((u) => u.action === "update").map((u) => [u.legacyId, u.changes]),
    );
    expect(changes).toEqual({ "stu-aoki": ["nickname"], "stu-baba": ["name"], "stu-endo": ["counterbalance group"] });
    expect((await user("stu-baba")).name).toBe("馬場 太一");
    expect((await user("stu-aoki")).nickname).toBe("はなこ２");
    expect((await user("stu-endo")).student?.counterbalanceGroup).toBe("B");
    // the password set in Manabiya stays: the old one still signs in, the new legacy one does not
    expect(await checkPassword({ email: mail("aoki"), password: "aoki-1234" }, "198.51.100.12")).toMatchObject({
      ok: true,
    });
    expect(
      await checkPassword({ email: mail("aoki"), password: "a-new-legacy-password" }, "198.51.100.12"),
    ).toMatchObject({ ok: false });
    expect(await checkPassword({ email: mail("goto"), password: "goto-pass" }, "198.51.100.12")).toMatchObject({
      ok: true,
    });
    expect(await prisma().user.count({ where: { email: { endsWith: "@legacy.example" } } })).toBe(9);

    // someone deleted in Manabiya is not created again
    await prisma().user.delete({ where: { legacyId: "stu-goto" } });
    const again = await importJson(prisma(), later);
    expect(again.plan.users.find((u) => u.legacyId === "stu-goto")).toMatchObject({
      action: "skip",
      reason: expect.stringContaining("deleted in Manabiya"),
    });
    expect(again.counts.users.created).toBe(0);
    expect(await prisma().user.count({ where: { email: mail("goto") } })).toBe(0);
  });
});

describe("legacy import: refusals, school links, e-mail links and the command line", () => {
  const database = freshDatabase("legacy");

  it("a malformed document gives its path and why (every problem of the file at once, in path order)", () => {
    const broken = fixture("export.json") as {
      __collections__: Record<string, Record<string, Record<string, unknown>>>;
    };
    broken.__collections__.users!["stu-baba"]!.role = "principal";
    broken.__collections__.users!["stu-aoki"]!.createdAt = "yesterday";
    broken.__collections__.users!["tch-kato"]!.groupType = "academy";
    const read = readLegacyExport(broken);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problems).toEqual([
      { path: "users/stu-aoki", message: expect.stringContaining("createdAt is not a timestamp") },
      { path: "users/stu-baba", message: "role must be student, teacher or manager" },
      { path: "users/tch-kato", message: "groupType must be school for a teacher" },
    ]);
    expect(readLegacyExport({ users: [] })).toEqual({
      ok: false,
      problems: [{ path: "users", message: expect.stringContaining("not a collection") }],
    });
    expect(readLegacyExport({ users: { u1: "x" } })).toEqual({
      ok: false,
      problems: [{ path: "users/u1", message: expect.stringContaining("not a document") }],
    });
    expect(readLegacyExport({ schools: {} })).toMatchObject({ ok: false, problems: [{ path: "users" }] });
    expect(readSchoolAcademyMap({ a: 1 }).ok).toBe(false);
  });

  it("schools without an academy link abort the run with their path; the map links them", async () => {
    const data = fixture("two-academies.json");
    const options = { dryRun: false, signinCodeKey: TEST_SIGNIN_CODE_KEY };
    const before = await dump(database.prisma);
    const none = await runImport(database.prisma, exportOf(data), options);
    expect(none.ok === false && none.problems.map((p) => p.path)).toEqual([
      "schools/school-1",
      "schools/school-2",
      "schools/school-3",
    ]);
    const partial = readSchoolAcademyMap(fixture("two-academies.partial-map.json"));
    const aborted = await runImport(database.prisma, exportOf(data), {
      ...options,
      schoolAcademy: partial.ok ? partial.map : undefined,
    });
    expect(aborted).toEqual({
      ok: false,
      problems: [{ path: "schools/school-3", message: expect.stringContaining("--school-academy") }],
    });
    const unknown = await runImport(database.prisma, exportOf(data), {
      ...options,
      schoolAcademy: new Map([
        ["school-1", "acad-zzz"],
        ["school-2", "acad-b"],
        ["school-3", "acad-b"],
      ]),
    });
    expect(unknown.ok === false && unknown.problems).toEqual([
      { path: "schools/school-1", message: expect.stringContaining('"acad-zzz"') },
    ]);
    expect(await dump(database.prisma)).toBe(before);

    const map = readSchoolAcademyMap(fixture("two-academies.map.json"));
    const done = await importJson(database.prisma, data, { schoolAcademy: map.ok ? map.map : undefined });
    expect(done.counts.schools.created).toBe(3);
    const academyOf = async (legacyId: string) =>
      (
        await database.prisma.school.findUniqueOrThrow({
          where: { legacyId },
          select: { academy: { select: { legacyId: true } } },
        })
      ).academy.legacyId;
    expect([await academyOf("school-1"), await academyOf("school-2"), await academyOf("school-3")]).toEqual([
      "acad-a",
      "acad-b",
      "acad-b",
    ]);
    // once imported, a school keeps its academy: a re-run needs no map
    expect((await importJson(database.prisma, data)).counts.schools).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      skipped: 0,
    });
  });

  it("links someone Manabiya already has by e-mail (filling only what is empty) and refuses a link across schools or roles", async () => {
    const school1 = await database.prisma.school.findUniqueOrThrow({ where: { legacyId: "school-1" } });
    const school2 = await database.prisma.school.findUniqueOrThrow({ where: { legacyId: "school-2" } });
    const byHand = await database.prisma.user.create({
      data: {
        role: "student",
        groupType: "school",
        schoolId: school1.id,
        email: "hand@legacy2.example",
        name: "手入力 名前",
        student: { create: { grade: 2, className: "1", number: 5 } },
      },
    });
    await database.prisma.user.create({
      data: { role: "teacher", groupType: "school", schoolId: school2.id, email: "other@legacy2.example" },
    });
    const data = fixture("two-academies.json") as {
      users: Record<string, unknown>;
      schools: Record<string, { students?: Record<string, unknown> }>;
    };
    data.users["s-hand"] = { email: "Hand@legacy2.example", groupId: "school-1", groupType: "school", role: "student" };
    data.users["s-other"] = {
      email: "other@legacy2.example",
      groupId: "school-1",
      groupType: "school",
      role: "student",
    };
    data.schools["school-1"]!.students = {
      "s-hand": { name: "別の 名前", nickName: "てにゅう", password: "pw-hand", counterbalanceGroupId: "a" },
      "s-other": { name: "他校", password: "pw-other" },
    };
    const result = await importJson(database.prisma, data);
    expect(result.plan.users.find((u) => u.legacyId === "s-hand")).toMatchObject({
      action: "update",
      id: byHand.id,
      changes: ["linked by e-mail", "nickname", "counterbalance group", "password", "sign-in code"],
    });
    const linked = await database.prisma.user.findUniqueOrThrow({
      where: { id: byHand.id },
      include: { student: true },
    });
    expect(linked).toMatchObject({
      legacyId: "s-hand",
      name: "手入力 名前",
      nickname: "てにゅう",
      student: { grade: 2, className: "1", number: 5, counterbalanceGroup: "A" },
    });
    expect(await verifyPassword(linked.passwordHash!, "pw-hand")).toBe(true);
    expect(result.plan.users.find((u) => u.legacyId === "s-other")).toMatchObject({
      action: "skip",
      reason: expect.stringContaining("teacher in Manabiya"),
    });
    expect(await database.prisma.user.count({ where: { email: "other@legacy2.example" } })).toBe(1);
  });

  it("the command: refuses with the path and exit code 1, dry-runs, imports, and never prints a password", async () => {
    const other = await emptyDatabase("legacy_cli");
    try {
      const env = {
        ...process.env,
        DATABASE_URL: other.url,
        SIGNIN_CODE_KEY: TEST_SIGNIN_CODE_KEY,
        NODE_ENV: "production" as const,
        AUTH_URL: "https://manabiya.example.jp",
        AUTH_SECRET: "cli-test-secret-cli-test-secret-cli-test",
      };
      const cli = (...args: string[]) =>
        run(path.join(ROOT, "node_modules/.bin/tsx"), ["tools/cli/import-legacy.ts", ...args], { cwd: ROOT, env }).then(
          (r) => ({ code: 0, ...r }),
          (e: { code: number; stdout: string; stderr: string }) => ({
            code: e.code,
            stdout: e.stdout,
            stderr: e.stderr,
          }),
        );
      const file = path.join(FIXTURES, "two-academies.json");
      // a dry run writes nothing, not even the schema: it refuses a database without it
      const unmigrated = await cli(file, "--dry-run");
      expect(unmigrated).toMatchObject({ code: 1, stderr: expect.stringContaining("npm run db:migrate") });
      const raw = createPrismaClient(other.url, 1);
      expect(await raw.$queryRaw`select to_regclass('"_prisma_migrations"')::text as t`).toEqual([{ t: null }]);
      await raw.$disconnect();
      const refused = await cli(file, "--school-academy", path.join(FIXTURES, "two-academies.partial-map.json"));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("schools/school-3: has no academy");
      expect(refused.stderr).toContain("nothing was written");

      const badJson = path.join(mkdtempSync(path.join(tmpdir(), "legacy-")), "bad.json");
      writeFileSync(badJson, '{"users": {"u1": {');
      expect(await cli(badJson)).toMatchObject({ code: 1, stderr: expect.stringContaining("not valid JSON") });
      expect((await cli()).code).toBe(2);

      const map = path.join(FIXTURES, "two-academies.map.json");
      const dry = await cli(file, "--dry-run", "--school-academy", map);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain("Dry run: nothing was written");
      expect(dry.stdout).toMatch(/users\s+5\s+0\s+0\s+0/);
      const check = createPrismaClient(other.url, 1);
      try {
        expect(await check.user.count()).toBe(0);
        const real = await cli(file, "--school-academy", map);
        expect(real.code).toBe(0);
        expect(real.stdout).toMatch(/schools\s+3\s+0\s+0\s+0/);
        expect(await check.user.count()).toBe(5);
        const again = await cli(file);
        expect(again.stdout).toMatch(/users\s+0\s+0\s+5\s+0/);
        for (const out of [refused, dry, real, again]) expect(out.stdout + out.stderr).not.toMatch(/pw-[mt]-/);
      } finally {
        await check.$disconnect();
      }
    } finally {
      await dropDatabase(other.name);
    }
  });
});

describe("legacy import of a generated export: 2 academies, 5 schools, 1,000 people", () => {
  const database = freshDatabase("legacy_big");

  // 2,000 password hashes (the import's and the check's): minutes of CPU on a loaded 2-core machine, judged on results
  it("refuses a broken document with its path, dry-runs, imports everyone once, every password verifies, and the second run changes nothing", async () => {
    const { data, map } = generateExport(1000);
    const schoolAcademy = new Map(Object.entries(map));
    // a broken document anywhere aborts with its path; a dry run plans everyone and writes nothing
    const broken = structuredClone(data);
    (broken.users["gen-u00500"] as Record<string, unknown>).role = "principal";
    expect(readLegacyExport(broken)).toEqual({
      ok: false,
      problems: [{ path: "users/gen-u00500", message: "role must be student, teacher or manager" }],
    });
    const empty = await dump(database.prisma);
    const dry = await importJson(database.prisma, data, { schoolAcademy, dryRun: true });
    expect(dry.counts.users.created).toBe(1000);
    expect(await dump(database.prisma)).toBe(empty);

    const progress: string[] = [];
    const first = await importJson(database.prisma, data, {
      schoolAcademy,
      onProgress: (phase, done, total) => done === total && progress.push(`${phase} ${total}`),
    });
    expect(first.counts).toEqual({
      academies: { created: 2, updated: 0, unchanged: 0, skipped: 0 },
      schools: { created: 5, updated: 0, unchanged: 0, skipped: 0 },
      users: { created: 1000, updated: 0, unchanged: 0, skipped: 0 },
    });
    expect(progress).toContain("hashing 1000");
    expect(await database.prisma.academy.count()).toBe(2);
    expect(await database.prisma.school.count()).toBe(5);
    expect(await database.prisma.user.groupBy({ by: ["role"], _count: true, orderBy: { role: "asc" } })).toEqual([
      { role: "student", _count: 976 },
      { role: "teacher", _count: 20 },
      { role: "manager", _count: 4 },
    ]);
    expect(await database.prisma.signinCode.count()).toBe(976);
    expect(await database.prisma.studentDetail.count({ where: { counterbalanceGroup: "A" } })).toBe(488);

    const users = await database.prisma.user.findMany({
      select: { legacyId: true, passwordHash: true, createdAt: true },
    });
    let verified = 0;
    let next = 0;
    const worker = async () => {
      while (next < users.length) {
        const u = users[next++]!;
        expect(u.passwordHash).toMatch(/^\$argon2id\$/);
        expect(u.passwordHash).not.toContain(passwordOf(u.legacyId!));
        if (await verifyPassword(u.passwordHash!, passwordOf(u.legacyId!))) verified += 1;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(verified).toBe(1000);
    const index = (legacyId: string) => Number(legacyId.slice(-5));
    for (const u of users) expect(u.createdAt.getTime()).toBe(1_690_000_000_000 + index(u.legacyId!) * 60_000);

    const before = await dump(database.prisma);
    const second = await importJson(database.prisma, data);
    expect(second.counts.users).toEqual({ created: 0, updated: 0, unchanged: 1000, skipped: 0 });
    expect(second.counts.schools).toEqual({ created: 0, updated: 0, unchanged: 5, skipped: 0 });
    expect(await dump(database.prisma)).toBe(before);
  }, 240_000);
});
