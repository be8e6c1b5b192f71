import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runScript } from "../../../tests/support/admin-run";
import { writeRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { createUser } from "../../../prisma/seed/factories";
import { freshDatabase } from "../../../tests/support/helpers";
import { rosterSet } from "../../../tests/support/roster-fixture";

/**
 * `npm run roster -- …` as an IT office runs it: a dry run writes nothing, the import applies,
 * the same set again changes nothing, a problem is exit 1 with nothing changed, bad usage is
 * exit 2, and an export read back by the importer changes nothing. Every text is Japanese; with
 * --json the last line of standard output is the one JSON object a script reads, and standard
 * error holds only the log's JSON lines (the audited actions), never the text.
 */
const db = freshDatabase("roster_cli");
const roster = (args: string[]) => runScript("tools/cli/roster.ts", db.url, args);
const BULK = "tests/fixtures/oneroster/bulk-jhs";
const DELTA = "tests/fixtures/oneroster/delta-jhs";
const zero = { create: 0, update: 0, move: 0, disable: 0, link: 0 };

interface Answer {
  schools: {
    sourcedId: string;
    name: string;
    newSchool: boolean;
    students: typeof zero;
    teachers: typeof zero;
    classes: typeof zero;
  }[];
  problems: { file: string; line: number; column: string; code: string; message: string }[];
}
const lines = (text: string) =>
  text
    .trimEnd()
    .split("\n")
    .filter((l) => l !== "");
const lastLine = (out: string): Answer => JSON.parse(lines(out).at(-1)!) as Answer;
/** Standard output's text: every line but the JSON one, none of it JSON. */
const textOf = (out: string) => lines(out).slice(0, -1);
const isJson = (line: string) => {
  try {
    return typeof JSON.parse(line) === "object";
  } catch {
    return false;
  }
};
const everything = async () => ({
  users: await db.prisma.user.count(),
  schools: await db.prisma.school.count(),
  classes: await db.prisma.rosterClass.count(),
  disabled: await db.prisma.user.count({ where: { disabled: true } }),
  codes: await db.prisma.signinCode.count(),
});

describe("the roster command line", () => {
  it("dry run, import, the same set again, export and its import: exit 0 and the counts on the last line", async () => {
    await db.prisma.academy.create({ data: { name: "まなびや市", nameKana: "まなびやし" } });
    const dry = await roster(["import", BULK, "--academy", "まなびや市", "--dry-run", "--json"]);
    expect(dry, dry.err).toMatchObject({ code: 0 });
    const plan = lastLine(dry.out);
    expect(plan).toEqual({
      problems: [],
      schools: [
        expect.objectContaining({
          name: "まなびや市立みなみ中学校",
          newSchool: true,
          students: { ...zero, create: 4 },
          teachers: { ...zero, create: 2 },
          classes: { ...zero, create: 3 },
        }),
      ],
    });
    expect(textOf(dry.out)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[\d+\.\d 秒\] users\.csv を読んでいます: 6 行$/),
        "まなびや市立みなみ中学校（20000000-0000-4000-8000-000000000002）［新しい学校］: 生徒 新規 4・変更 0・移動 0・無効 0・紐付け 0 ／ 先生 新規 2・変更 0・移動 0・無効 0・紐付け 0 ／ 組 新規 3・変更 0・移動 0・無効 0・紐付け 0",
        "新しく作る学校: 1 校",
        "確かめただけです（--dry-run）。何も変えていません。",
      ]),
    );
    expect(await db.prisma.user.count()).toBe(0);

    const done = await roster([
      "import",
      BULK,
      "--academy",
      "まなびや市",
      "--json",
      "--school-kana",
      "まなびや市立みなみ中学校=まなびやしりつみなみちゅうがっこう",
    ]);
    expect(done.code).toBe(0);
    expect(lastLine(done.out).schools[0]!.students.create).toBe(4);
    expect(textOf(done.out)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[\d+\.\d 秒\] まなびや市立みなみ中学校 を反映しました（1 \/ 1 校）$/),
        "反映しました。",
      ]),
    );
    expect(textOf(done.out).filter(isJson)).toEqual([]);
    // the log: the audited actions as JSON lines on standard error, and nothing else there
    const log = lines(done.err);
    expect(log.every(isJson), done.err).toBe(true);
    expect(log.map((l) => (JSON.parse(l) as { event?: string }).event)).toEqual(
      expect.arrayContaining(["roster.import", "roster.apply"]),
    );
    expect(await db.prisma.school.findFirstOrThrow({ select: { name: true, nameKana: true } })).toEqual({
      name: "まなびや市立みなみ中学校",
      nameKana: "まなびやしりつみなみちゅうがっこう",
    });
    const student = await db.prisma.user.findFirstOrThrow({
      where: { sourcedId: "50000000-0000-4000-8000-000000000011" },
      include: { student: true },
    });
    expect(student).toMatchObject({ name: "佐藤 太郎", nameKana: "さとう たろう", student: { grade: 1, number: 1 } });

    const again = await roster(["import", BULK, "--academy", "まなびや市", "--json"]);
    expect(again.code).toBe(0);
    expect(lastLine(again.out).schools.map((s) => [s.newSchool, s.students, s.teachers, s.classes])).toEqual([
      [false, zero, zero, zero],
    ]);

    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    const zip = path.join(dir, "export.zip");
    const exported = await roster(["export", zip, "--academy", "まなびや市"]);
    expect(exported.code).toBe(0);
    expect(lines(exported.out).at(-1)).toBe(`1 校、6 人、3 組を ${zip} に書き出しました。`);
    const back = await roster(["import", zip, "--academy", "まなびや市", "--json"]);
    expect(lastLine(back.out)).toEqual({
      problems: [],
      schools: [expect.objectContaining({ students: zero, teachers: zero, classes: zero })],
    });
    expect(back.code).toBe(0);

    const delta = await roster(["import", DELTA, "--academy", "まなびや市", "--json"]);
    expect(delta.code).toBe(0);
    expect(lastLine(delta.out).schools[0]!.students).toMatchObject({ create: 1, disable: 1 });
  }, 300_000);

  it("refuses an e-mail of another user: exit 1, the problem at its file, line and column, nothing changed", async () => {
    const school = await db.prisma.school.findFirstOrThrow();
    await db.prisma.user.create({
      data: { role: "teacher", groupType: "school", schoolId: school.id, email: "someone@example.jp", name: "誰か" },
    });
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
    const answer = lastLine(refused.out);
    expect(answer.problems).toEqual([expect.objectContaining({ file: "users.csv", line: 4, column: "email" })]);
    // the counts of every school are still there, beside the problem
    expect(answer.schools).toEqual([
      expect.objectContaining({
        name: "まなびや市立みなみ中学校",
        newSchool: false,
        students: expect.objectContaining({ create: 0 }),
      }),
    ]);
    expect(textOf(refused.out)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^users\.csv:4:email: users\.csv の 4 行目「email」/),
        "問題が 1 件あります。何も変えていません。ファイルを直してから、もう一度実行してください。",
      ]),
    );
    expect(await everything()).toEqual(before);
  }, 300_000);

  it("a student without 出席番号 is a warning on its own line: exit 0, and the JSON lists it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    cpSync(BULK, dir, { recursive: true });
    const enrollmentsCsv = path.join(dir, "enrollments.csv");
    writeFileSync(
      enrollmentsCsv,
      readFileSync(enrollmentsCsv, "utf8").replace(
        '"student","false","","","2","true"',
        '"student","false","","","","true"',
      ),
    );
    const dry = await roster(["import", dir, "--academy", "まなびや市", "--dry-run", "--json"]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(
      "注意: enrollments.csv:4:metadata.jp.ShussekiNo: enrollments.csv の 4 行目「metadata.jp.ShussekiNo」：出席番号がありません。",
    );
    expect(JSON.parse(dry.out.trimEnd().split("\n").at(-1)!)).toMatchObject({
      problems: [],
      warnings: [{ file: "enrollments.csv", line: 4, column: "metadata.jp.ShussekiNo" }],
    });
  }, 300_000);

  it("a seat already taken is pointed at in the delta's own enrollments.csv, by the column as that file spells it", async () => {
    const school = await db.prisma.school.findFirstOrThrow();
    await createUser(db.prisma, {
      role: "student",
      email: null,
      schoolId: school.id,
      name: "手で 追加",
      student: { grade: 1, className: "1", number: 9 },
    });
    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    cpSync(DELTA, dir, { recursive: true });
    const enrollments = path.join(dir, "enrollments.csv");
    writeFileSync(enrollments, readFileSync(enrollments, "utf8").replace(",2026-05-01,,3,true", ",2026-05-01,,9,true"));
    const refused = await roster(["import", dir, "--academy", "まなびや市", "--dry-run", "--json"]);
    expect(refused.code).toBe(1);
    expect(lastLine(refused.out).problems).toEqual([
      expect.objectContaining({
        file: "enrollments.csv",
        line: 2,
        column: "metadata.jp.shussekiNo",
        code: "seatTaken",
      }),
    ]);
    expect(textOf(refused.out)).toContain(
      "enrollments.csv:2:metadata.jp.shussekiNo: enrollments.csv の 2 行目「metadata.jp.shussekiNo」：1年1組9番は、別の生徒の番号です。番号を直すか、先にその生徒の番号を変えてください。",
    );
  }, 300_000);

  it("applying stops at a school that cannot be written: exit 1, and the JSON lists the schools applied so far with their counts", async () => {
    await db.prisma.academy.create({ data: { name: "ふたつ市", nameKana: "ふたつし" } });
    const school = (name: string) => {
      const sourcedId = randomUUID();
      const homeroom = randomUUID();
      return {
        sourcedId,
        name,
        classes: [{ sourcedId: homeroom, title: "1年1組", grade: "J1" }],
        teachers: [],
        students: [
          {
            sourcedId: randomUUID(),
            family: "山田",
            given: "太郎",
            kanaFamily: "ヤマダ",
            kanaGiven: "タロウ",
            homeClass: homeroom,
            number: 1,
          },
        ],
      };
    };
    const dir = mkdtempSync(path.join(tmpdir(), "roster-cli-"));
    for (const [name, bytes] of Object.entries(
      writeRosterPackage(rosterSet([school("ひがし中学校"), school("にし中学校")])),
    ))
      writeFileSync(path.join(dir, name), bytes);
    // the second school's write fails, as when something changes between the plan and the write
    await db.prisma.$executeRawUnsafe(
      `CREATE FUNCTION refuse_nishi() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.name = 'にし中学校' THEN RAISE EXCEPTION 'the test refuses this school'; END IF; RETURN NEW; END $$`,
    );
    await db.prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_nishi BEFORE INSERT ON schools FOR EACH ROW EXECUTE FUNCTION refuse_nishi()`,
    );
    try {
      const stopped = await roster(["import", dir, "--academy", "ふたつ市", "--json"]);
      expect(stopped.code, stopped.err).toBe(1);
      const answer = lastLine(stopped.out) as Answer & { error: string };
      expect(answer.schools).toEqual([
        expect.objectContaining({
          name: "ひがし中学校",
          newSchool: true,
          students: { ...zero, create: 1 },
          classes: { ...zero, create: 1 },
        }),
      ]);
      expect(answer.error).toContain("the test refuses this school");
      expect(textOf(stopped.out)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^1 \/ 2 校を反映したところで止まりました: .*the test refuses this school.*反映した学校はそのままです。同じ名簿をもう一度取り込むと、残りを反映します。$/,
          ),
        ]),
      );
      expect(
        await db.prisma.school.findMany({ where: { academy: { name: "ふたつ市" } }, select: { name: true } }),
      ).toEqual([{ name: "ひがし中学校" }]);
    } finally {
      await db.prisma.$executeRawUnsafe("DROP TRIGGER refuse_nishi ON schools");
      await db.prisma.$executeRawUnsafe("DROP FUNCTION refuse_nishi()");
    }
  }, 300_000);

  it("bad usage is exit 2, says why and how in Japanese, and changes nothing", async () => {
    const before = await everything();
    const usage = async (args: string[], why: string) => {
      const run = await roster(args);
      expect(run.code, run.err).toBe(2);
      expect(run.err).toContain(`エラー: ${why}`);
      expect(run.err).toContain("使い方:\n  npm run roster -- import PATH --academy 学園");
      expect(run.err).toContain("終了コード: 0 問題なし、1 問題あり（何も変えていません）、2 使い方の誤り");
    };
    await usage(["import", BULK], "--academy（学園の id か名前）を指定してください。");
    await usage(
      ["import", BULK, "--academy", "no such academy"],
      "--academy: id か名前が「no such academy」の学園が 1 つに決まりません。",
    );
    await usage(
      ["import", "no/such/path", "--academy", "まなびや市"],
      "no/such/path: そのファイルもフォルダもありません。",
    );
    await usage(["frobnicate", BULK, "--academy", "まなびや市"], "import か export と、PATH を 1 つ指定してください。");
    await usage(
      ["import", BULK, "--academy", "まなびや市", "--school-kana", "どこか=どこか"],
      "--school-kana「どこか=どこか」: この名簿にその名前か sourcedId の学校がありません。",
    );
    await usage(
      ["import", BULK, "--academy", "まなびや市", "--school-kana", "まなびや市立みなみ中学校=Minami"],
      "--school-kana「まなびや市立みなみ中学校=Minami」: 「学校=よみ」の形で、よみはひらがなかカタカナで書いてください。",
    );
    await usage(
      ["export", "x.zip", "--academy", "まなびや市", "--json"],
      "--dry-run、--json、--school-kana は import（取り込み）のときだけ使えます。",
    );
    expect(await everything()).toEqual(before);
  }, 300_000);
});
