import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "./admin-run";
import { freshDatabase } from "./helpers";

/**
 * `npm run roster -- …` as an IT office runs it: a dry run writes nothing, the import applies,
 * the same set again changes nothing, a problem is exit 1 with nothing changed, bad usage is
 * exit 2, and an export read back by the importer changes nothing. With --json the last line
 * of standard output is the one JSON object a script reads.
 */
const db = freshDatabase("roster_cli");
const roster = (args: string[]) => runScript("scripts/roster.ts", db.url, args);
const BULK = "tests/fixtures/oneroster/bulk-jhs";
const DELTA = "tests/fixtures/oneroster/delta-jhs";
const zero = { create: 0, update: 0, move: 0, disable: 0, link: 0 };

interface Answer {
  schools: { sourcedId: string; name: string; students: typeof zero; teachers: typeof zero; classes: typeof zero }[];
  problems: { file: string; line: number; column: string; message: string }[];
}
const lastLine = (out: string): Answer => JSON.parse(out.trimEnd().split("\n").at(-1)!) as Answer;
const everything = async () => ({
  users: await db.prisma.user.count(), schools: await db.prisma.school.count(), classes: await db.prisma.rosterClass.count(),
  disabled: await db.prisma.user.count({ where: { disabled: true } }), codes: await db.prisma.signinCode.count(),
});

describe("the roster command line", () => {
  it("dry run, import, the same set again, export and its import: exit 0 and the counts on the last line", async () => {
    await db.prisma.academy.create({ data: { name: "まなびや市", nameKana: "まなびやし" } });
    const dry = await roster(["import", BULK, "--academy", "まなびや市", "--dry-run", "--json"]);
    expect(dry, dry.err).toMatchObject({ code: 0 });
    const plan = lastLine(dry.out);
    expect(plan).toEqual({ problems: [], schools: [expect.objectContaining({ name: "まなびや市立みなみ中学校", students: { ...zero, create: 4 }, teachers: { ...zero, create: 2 }, classes: { ...zero, create: 3 } })] });
    expect(dry.out).toContain("dry run: nothing changed");
    expect(await db.prisma.user.count()).toBe(0);

    const done = await roster(["import", BULK, "--academy", "まなびや市", "--json"]);
    expect(done.code).toBe(0);
    expect(lastLine(done.out).schools[0]!.students.create).toBe(4);
    expect(done.err).toContain("applied まなびや市立みなみ中学校 (1/1)");
    const student = await db.prisma.user.findFirstOrThrow({ where: { sourcedId: "50000000-0000-4000-8000-000000000011" }, include: { student: true } });
    expect(student).toMatchObject({ name: "佐藤 太郎", nameKana: "さとう たろう", student: { grade: 1, number: 1 } });

    const again = await roster(["import", BULK, "--academy", "まなびや市", "--json"]);
    expect(again.code).toBe(0);
    expect(lastLine(again.out).schools.map((s) => [s.students, s.teachers, s.classes])).toEqual([[zero, zero, zero]]);

    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    const zip = path.join(dir, "export.zip");
    const exported = await roster(["export", zip, "--academy", "まなびや市"]);
    expect(exported.code).toBe(0);
    const back = await roster(["import", zip, "--academy", "まなびや市", "--json"]);
    expect(lastLine(back.out)).toEqual({ problems: [], schools: [expect.objectContaining({ students: zero, teachers: zero, classes: zero })] });
    expect(back.code).toBe(0);

    const delta = await roster(["import", DELTA, "--academy", "まなびや市", "--json"]);
    expect(delta.code).toBe(0);
    expect(lastLine(delta.out).schools[0]!.students).toMatchObject({ create: 1, disable: 1 });
  }, 300_000);

  it("refuses an e-mail of another user: exit 1, the problem at its file, line and column, nothing changed", async () => {
    const school = await db.prisma.school.findFirstOrThrow();
    await db.prisma.user.create({ data: { role: "teacher", groupType: "school", schoolId: school.id, email: "someone@example.jp", name: "誰か" } });
    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    cpSync(BULK, dir, { recursive: true });
    const usersCsv = path.join(dir, "users.csv");
    const lines = readFileSync(usersCsv, "utf8").split("\r\n");
    const cells = lines[3]!.split('","');
    cells[10] = "someone@example.jp";
    lines[3] = cells.join('","');
    writeFileSync(usersCsv, lines.join("\r\n"));
    const before = await everything();
    const refused = await roster(["import", dir, "--academy", "まなびや市", "--json"]);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.out).problems).toEqual([expect.objectContaining({ file: "users.csv", line: 4, column: "email" })]);
    expect(await everything()).toEqual(before);
  }, 300_000);

  it("a student without 出席番号 is a warning on its own line: exit 0, and the JSON lists it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    cpSync(BULK, dir, { recursive: true });
    const enrollmentsCsv = path.join(dir, "enrollments.csv");
    writeFileSync(enrollmentsCsv, readFileSync(enrollmentsCsv, "utf8").replace('"student","false","","","2","true"', '"student","false","","","","true"'));
    const dry = await roster(["import", dir, "--academy", "まなびや市", "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain("warning: enrollments.csv:4:metadata.jp.ShussekiNo: enrollments.csv の 4 行目「metadata.jp.ShussekiNo」：出席番号がありません。");
    expect(JSON.parse(dry.out.trimEnd().split("\n").at(-1)!)).toMatchObject({ problems: [], warnings: [{ file: "enrollments.csv", line: 4, column: "metadata.jp.ShussekiNo" }] });
  }, 300_000);

  it("bad usage is exit 2 and changes nothing", async () => {
    const before = await everything();
    expect((await roster(["import", BULK])).code).toBe(2);
    expect((await roster(["import", BULK, "--academy", "no such academy"])).code).toBe(2);
    expect((await roster(["import", "no/such/path", "--academy", "まなびや市"])).code).toBe(2);
    expect((await roster(["frobnicate", BULK, "--academy", "まなびや市"])).code).toBe(2);
    expect(await everything()).toEqual(before);
  }, 300_000);
});
