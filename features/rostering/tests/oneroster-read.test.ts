import iconv from "iconv-lite";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { editFile, FIXTURES, loadFixture, where } from "../../../tests/support/oneroster-fixture";
import { craftZip, overlappingBomb } from "../../../tests/support/zip-craft";

const S1 = "40000000-0000-4000-8000-000000000001"; // 1年1組
const S2 = "40000000-0000-4000-8000-000000000002"; // 2年1組
const bulk = () => loadFixture("bulk-jhs");
const replaceLine = (n: number, edit: (line: string) => string) => (text: string) =>
  text
    .split("\r\n")
    .map((l, i) => (i === n - 1 ? edit(l) : l))
    .join("\r\n");

describe("OneRoster reader: the published shape", () => {
  it("reads the bulk set of one 中学校: J1–J3 homerooms, a 担任, a principal, 出席番号, a quoted comma", async () => {
    const { set, problems } = await readRosterPackage(bulk());
    expect(problems).toEqual([]);
    expect(set!.manifest.onerosterVersion).toBe("1.2");
    expect(set!.manifest.files.users).toBe("bulk");
    expect(set!.manifest.files.userProfiles).toBe("absent");
    expect(set!.manifest.sourceSystemName).toBe("テスト校務システム");
    expect(set!.classes.map((c) => [c.title, c.grades, c.classType])).toEqual([
      ["1年1組", ["J1"], "homeroom"],
      ["2年1組", ["J2"], "homeroom"],
      ["3年1組", ["J3"], "homeroom"],
    ]);
    expect(set!.roles.filter((r) => r.role === "principal").map((r) => r.roleType)).toEqual(["secondary"]);
    const teacher = set!.enrollments.find((e) => e.role === "teacher")!;
    expect([teacher.classSourcedId, teacher.primary]).toEqual([S1, true]);
    expect(
      set!.enrollments.filter((e) => e.classSourcedId === S1 && e.role === "student").map((e) => e.shussekiNo),
    ).toEqual([1, 2]);
    expect(set!.users.find((u) => u.username === "s13@example.jp")!.givenName).toBe('健, "ケン"');
    expect(set!.users[2]!.line).toBe(4);
    expect(set!.academicSessions[0]).toMatchObject({ title: "2026年度", schoolYear: 2026, startDate: "2026-04-01" });
  });

  it("reads the same set from a folder (command line) and from a zip", async () => {
    const fromFiles = await readRosterPackage(bulk());
    const fromFolder = await readRosterPackage({ folder: `${FIXTURES}/bulk-jhs` });
    const fromZip = await readRosterPackage(zipSync(bulk()));
    expect(fromFolder.set).toEqual(fromFiles.set);
    expect(fromZip.set).toEqual(fromFiles.set);
  });

  it("reads a delta set (1.2.1, 29-column users, shussekiNo, LF, no quotes, Z and +09:00) against rows the caller knows", async () => {
    const known = (kind: string, id: string) =>
      (kind === "classes" && id.startsWith("40000000")) || (kind === "orgs" && id.startsWith("2"));
    const { set, problems } = await readRosterPackage(loadFixture("delta-jhs"), { known });
    expect(problems).toEqual([]);
    expect(set!.users.map((u) => [u.status, u.kanaGivenName])).toEqual([
      ["active", "ひな"],
      ["tobedeleted", "ユイ"],
    ]);
    expect(set!.enrollments[0]).toMatchObject({
      shussekiNo: 3,
      publicFlg: true,
      status: "active",
      beginDate: "2026-05-01",
    });
    const alone = await readRosterPackage(loadFixture("delta-jhs"));
    expect(where(alone.problems)).toContain(`missingReference enrollments.csv:2 classSourcedId`);
    expect(alone.set).toBeNull();
  });
});

describe("OneRoster reader: bad packages are reported at file, line and column, and give no set", () => {
  it("manifest.csv missing", async () => {
    const files = bulk();
    delete files["manifest.csv"];
    const r = await readRosterPackage(files);
    expect(r.set).toBeNull();
    expect(where(r.problems)).toEqual(["manifestMissing manifest.csv:0 "]);
  });

  it("manifest with a wrong header, version, missing file row or unknown mode", async () => {
    const header = await readRosterPackage(
      editFile(bulk(), "manifest.csv", (t) => t.replace("propertyName,value", "name,value")),
    );
    expect(where(header.problems)).toEqual(["manifestHeader manifest.csv:1 name"]);
    const version = await readRosterPackage(editFile(bulk(), "manifest.csv", (t) => t.replace('"1.2"', '"2.0"')));
    expect(where(version.problems)).toEqual(["onerosterVersion manifest.csv:3 value"]);
    expect(version.problems[0]!.message).toContain("2.0");
    const row = await readRosterPackage(
      editFile(bulk(), "manifest.csv", (t) => t.replace('"file.scoreScales","absent"\r\n', "")),
    );
    expect(where(row.problems)).toEqual(["manifestRowMissing manifest.csv:0 file.scoreScales"]);
    const mode = await readRosterPackage(
      editFile(bulk(), "manifest.csv", (t) => t.replace('"file.users","bulk"', '"file.users","full"')),
    );
    expect(where(mode.problems)).toEqual(["manifestMode manifest.csv:24 file.users"]);
    for (const r of [header, version, row, mode]) expect(r.set).toBeNull();
  });

  it("a file marked bulk but absent, and a file marked absent but present", async () => {
    const files = bulk();
    delete files["users.csv"];
    files["demographics.csv"] = new Uint8Array();
    const r = await readRosterPackage(files);
    expect(where(r.problems)).toEqual(["fileNotAbsent demographics.csv:0 ", "fileMissing users.csv:0 "]);
    expect(r.problems[1]!.message).toBe(
      "users.csv がありません。manifest.csv で bulk としているファイルは必ず入れてください。",
    );
  });

  it("an unknown enumeration (classType, role, org type)", async () => {
    let files = editFile(
      bulk(),
      "classes.csv",
      replaceLine(3, (l) => l.replace('"homeroom"', '"homeroomX"')),
    );
    files = editFile(
      files,
      "roles.csv",
      replaceLine(2, (l) => l.replace('"teacher"', '"administrator"')),
    );
    const r = await readRosterPackage(files);
    expect(where(r.problems)).toEqual(["fieldEnum classes.csv:3 classType", "fieldEnum roles.csv:2 role"]);
    expect(r.problems[0]!.message).toBe(
      "classes.csv の 3 行目「classType」の値「homeroomX」は使えません（使える値: homeroom, scheduled）。使える値のどれかにしてください。",
    );
    expect(r.set).toBeNull();
  });

  it("a duplicate sourcedId names both lines", async () => {
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "classes.csv",
        replaceLine(3, (l) => l.replace(S2, S1)),
      ),
    );
    expect(where(r.problems)).toContain("duplicateId classes.csv:3 sourcedId");
    expect(r.problems.find((p) => p.code === "duplicateId")!.message).toContain("2 行目と同じ");
  });

  it("a reference to a missing row (users.homeClass → classes)", async () => {
    const missing = "40000000-0000-4000-8000-000000000099";
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "users.csv",
        replaceLine(4, (l) => l.replace(`"${S1}"`, `"${missing}"`)),
      ),
    );
    expect(where(r.problems)).toEqual(["missingReference users.csv:4 metadata.jp.homeClass"]);
    expect(r.problems[0]!.params).toMatchObject({ value: missing, expected: "classes.csv" });
  });

  it("a student enrolled in two homerooms", async () => {
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "enrollments.csv",
        (t) =>
          `${t}"70000000-0000-4000-8000-000000000099","","","${S2}","20000000-0000-4000-8000-000000000002","50000000-0000-4000-8000-000000000011","student","false","","","9","true"\r\n`,
      ),
    );
    expect(where(r.problems)).toEqual(["twoHomerooms enrollments.csv:7 classSourcedId"]);
  });

  it("two students with the same 出席番号 in one homeroom", async () => {
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "enrollments.csv",
        replaceLine(4, (l) => l.replace('"2","true"', '"1","true"')),
      ),
    );
    expect(where(r.problems)).toEqual(["shussekiNoCollision enrollments.csv:4 metadata.jp.ShussekiNo"]);
    expect(r.problems[0]!.message).toContain("出席番号 1 は同じ組の 3 行目と同じ");
    // The K-12 Profile's spelling is named as the file has it.
    const k12 = await readRosterPackage(
      editFile(bulk(), "enrollments.csv", (t) =>
        replaceLine(4, (l) => l.replace('"2","true"', '"1","true"'))(
          t.replace("metadata.jp.ShussekiNo,metadata.jp.PublicFlg", "metadata.jp.shussekiNo,metadata.jp.publicFlg"),
        ),
      ),
    );
    expect(where(k12.problems)).toEqual(["shussekiNoCollision enrollments.csv:4 metadata.jp.shussekiNo"]);
  });

  it("a secondary role without a primary one", async () => {
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "roles.csv",
        replaceLine(2, () => ""),
      ),
    );
    expect(where(r.problems)).toEqual(["secondaryWithoutPrimary roles.csv:3 roleType"]);
  });

  it("bulk rows with a status, delta rows without one", async () => {
    const b = await readRosterPackage(
      editFile(
        bulk(),
        "orgs.csv",
        replaceLine(2, (l) => l.replace('"",""', '"active",""')),
      ),
    );
    expect(where(b.problems)).toEqual(["bulkStatusNotEmpty orgs.csv:2 status"]);
    const known = () => true;
    const d = await readRosterPackage(
      editFile(loadFixture("delta-jhs"), "roles.csv", (t) => t.replace(",active,2026-05-01T00:00:00Z,", ",,,")),
      { known },
    );
    expect(where(d.problems)).toEqual([
      "deltaStatusMissing roles.csv:2 status",
      "deltaStatusMissing roles.csv:2 dateLastModified",
    ]);
  });

  it("bad UUID, date, date-time, boolean, grade, integer and half-width katakana, each at its column", async () => {
    let files = editFile(
      bulk(),
      "users.csv",
      replaceLine(4, (l) => l.replace('"タロウ"', '"ﾀﾛｳ"').replace('"J1"', '"J4"').replace('"true"', '"yes"')),
    );
    files = editFile(
      files,
      "enrollments.csv",
      replaceLine(3, (l) => l.replace('"1","true"', '"一","true"')),
    );
    files = editFile(
      files,
      "roles.csv",
      replaceLine(4, (l) => l.replace("2026-04-01", "2026-02-30")),
    );
    files = editFile(
      files,
      "orgs.csv",
      replaceLine(2, (l) => l.replace("20000000-0000-4000-8000-000000000001", "not-a-uuid")),
    );
    const r = await readRosterPackage(files);
    expect(where(r.problems)).toEqual(
      expect.arrayContaining([
        "fieldUuid orgs.csv:2 sourcedId",
        "fieldBoolean users.csv:4 enabledUser",
        "fieldGrade users.csv:4 grades",
        "fieldHalfWidthKana users.csv:4 metadata.jp.kanaGivenName",
        "fieldDate roles.csv:4 beginDate",
        "fieldInteger enrollments.csv:3 metadata.jp.ShussekiNo",
      ]),
    );
    const delta = await readRosterPackage(
      editFile(loadFixture("delta-jhs"), "roles.csv", (t) => t.replace("2026-05-01T00:00:00Z", "2026-05-01 00:00")),
      { known: () => true },
    );
    expect(where(delta.problems)).toEqual(["fieldDateTime roles.csv:2 dateLastModified"]);
  });

  it("a header in the wrong order names the column; extra trailing columns are ignored", async () => {
    const wrong = await readRosterPackage(editFile(bulk(), "orgs.csv", (t) => t.replace("name,type", "type,name")));
    expect(where(wrong.problems)).toEqual(["headerMismatch orgs.csv:1 type"]);
    expect(wrong.problems[0]!.message).toContain("4 列目「type」の位置には「name」");
    const extra = await readRosterPackage(
      editFile(bulk(), "orgs.csv", (t) =>
        t
          .split("\r\n")
          .map((l, i) => (l === "" ? l : i === 0 ? `${l},metadata.vendor.x` : `${l},"x"`))
          .join("\r\n"),
      ),
    );
    expect(extra.problems).toEqual([]);
  });

  it("a zip that would unpack past the limit is refused before it is inflated", async () => {
    const r = await readRosterPackage(zipSync(bulk()), { maxUnzippedBytes: 4096 });
    expect(r.set).toBeNull();
    expect(where(r.problems)).toEqual(["packageTooLarge :0 "]);
  });

  it("a zip whose entries share or overlap their data is refused as invalid", async () => {
    const files = Object.entries(bulk()).map(([name, bytes]) => ({ name, bytes }));
    const honest = files.map((f, i) => ({ name: f.name, blob: i }));
    expect((await readRosterPackage(craftZip(files, honest))).problems).toEqual([]);
    const shared = craftZip(files, [...honest, { name: "copy.csv", blob: 0 }]);
    expect(where((await readRosterPackage(shared)).problems)).toEqual(["zipInvalid :0 "]);
    const bomb = await readRosterPackage(overlappingBomb(50, 16 * 1024 * 1024));
    expect(where(bomb.problems)).toEqual(["zipInvalid :0 "]);
  });

  it("an entry that inflates to more than it declares is refused at its declared size", async () => {
    const files = Object.entries(bulk()).map(([name, bytes]) => ({ name, bytes }));
    const lying = files.map((f, i) => ({ name: f.name, blob: i, declared: f.name === "users.csv" ? 100 : undefined }));
    expect(where((await readRosterPackage(craftZip(files, lying))).problems)).toEqual(["zipInvalid :0 "]);
    const bomb = craftZip(
      [{ name: "manifest.csv", bytes: new Uint8Array(64 * 1024 * 1024) }],
      [{ name: "manifest.csv", blob: 0, declared: 100 }],
    );
    expect(where((await readRosterPackage(bomb)).problems)).toEqual(["zipInvalid :0 "]);
  });

  it("a zip that is not a zip, and a zip whose CSVs sit in a folder", async () => {
    const bad = await readRosterPackage(new Uint8Array([0x50, 0x4b, 1, 2, 3]));
    expect(where(bad.problems)).toEqual(["zipInvalid :0 "]);
    const nested = Object.fromEntries(Object.entries(bulk()).map(([n, b]) => [`roster/${n}`, b]));
    const r = await readRosterPackage(zipSync(nested));
    expect(where(r.problems)).toEqual(["notAtRoot :0 "]);
    expect(r.problems[0]!.message).toContain("「roster」");
  });
});

describe("OneRoster reader: encodings and the CSV dialect", () => {
  it("accepts UTF-8 with a BOM as without one", async () => {
    const plain = await readRosterPackage(bulk());
    const withBom = Object.fromEntries(
      Object.entries(bulk()).map(([n, b]) => [n, new Uint8Array([0xef, 0xbb, 0xbf, ...b])]),
    );
    const r = await readRosterPackage(withBom);
    expect(r.problems).toEqual([]);
    expect(r.set).toEqual(plain.set);
  });

  it("names Shift_JIS and asks for UTF-8", async () => {
    const files = bulk();
    files["users.csv"] = new Uint8Array(iconv.encode(new TextDecoder().decode(files["users.csv"]), "cp932"));
    const r = await readRosterPackage(files);
    expect(r.set).toBeNull();
    expect(where(r.problems)).toEqual(["encodingNotUtf8 users.csv:0 "]);
    expect(r.problems[0]!.message).toBe("users.csv は Shift_JIS で保存されています。UTF-8 で保存し直してください。");
  });

  it("reads CRLF and LF the same, with the same line numbers", async () => {
    const crlf = await readRosterPackage(bulk());
    const lf = Object.fromEntries(
      Object.entries(bulk()).map(([n, b]) => [
        n,
        new TextEncoder().encode(new TextDecoder().decode(b).replace(/\r\n/g, "\n")),
      ]),
    );
    const r = await readRosterPackage(lf);
    expect(r.problems).toEqual([]);
    expect(r.set).toEqual(crlf.set);
  });

  it("reads quoted commas, quotes and line breaks, and counts lines physically", async () => {
    let files = editFile(
      bulk(),
      "classes.csv",
      replaceLine(2, (l) => l.replace('"homeroom",""', '"homeroom","A棟\r\n2階, ""東"""')),
    );
    files = editFile(
      files,
      "classes.csv",
      replaceLine(4, (l) => l.replace('"homeroom"', '"room"')),
    );
    const r = await readRosterPackage(files);
    // The break inside line 2's field pushes the third class from line 3 to line 4 (of the file, read physically).
    expect(where(r.problems)).toEqual(["fieldEnum classes.csv:4 classType"]);
    const ok = await readRosterPackage(
      editFile(
        bulk(),
        "classes.csv",
        replaceLine(2, (l) => l.replace('"homeroom",""', '"homeroom","A棟\r\n2階, ""東"""')),
      ),
    );
    expect(ok.set!.classes[0]!.location).toBe('A棟\r\n2階, "東"');
    expect(ok.set!.classes.map((c) => c.line)).toEqual([2, 4, 5]);
  });

  it("reports an unclosed quote at the line where its record starts", async () => {
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "courses.csv",
        replaceLine(3, (l) => l.replace('"2026年度2年', '"2026年度"2年')),
      ),
    );
    expect(where(r.problems)).toEqual(["csvSyntax courses.csv:3 "]);
  });

  it("empty, binary, UTF-16 and endless input: a clear problem each, no set", async () => {
    const cases: [Parameters<typeof readRosterPackage>[0], string][] = [
      [new Uint8Array(), "zipInvalid :0 "],
      [new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), "zipInvalid :0 "],
      [{}, "manifestMissing manifest.csv:0 "],
      [{ "manifest.csv": new Uint8Array() }, "fileEmpty manifest.csv:0 "],
      [{ "manifest.csv": new Uint8Array([0xff, 0xfe, 0x70, 0x00]) }, "encodingNotUtf8 manifest.csv:0 "],
      [
        { "manifest.csv": new TextEncoder().encode(`propertyName,value\n"${"x".repeat(1_100_000)}`) },
        "csvSyntax manifest.csv:2 ",
      ],
    ];
    for (const [input, expected] of cases) {
      const r = await readRosterPackage(input);
      expect(r.set).toBeNull();
      expect(where(r.problems)).toEqual([expected]);
    }
    const utf16 = await readRosterPackage({ "manifest.csv": new Uint8Array([0xff, 0xfe, 0x70, 0x00]) });
    expect(utf16.problems[0]!.params).toMatchObject({ encoding: "UTF-16" });
  });

  it("a package the writer zipped reads back", async () => {
    const { set } = await readRosterPackage(bulk());
    const again = await readRosterPackage(zipRosterPackage(set!));
    expect(again.problems).toEqual([]);
  });
});
