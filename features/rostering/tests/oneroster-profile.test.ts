import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { SCHOOL_CODE } from "@/features/rostering/shared/oneroster-profile";
import { editFile, loadFixture, where } from "../../../tests/support/oneroster-fixture";

/** #22: the Japan Profile's strict rules, each reported at its file, line and column; no set. */
const bulk = () => loadFixture("bulk-jhs");
const replaceLine = (n: number, edit: (line: string) => string) => (text: string) =>
  text
    .split("\r\n")
    .map((l, i) => (i === n - 1 ? edit(l) : l))
    .join("\r\n");

describe("OneRoster reader: strict Japan Profile checks", () => {
  it("the fixture set conforms (no problem)", async () => {
    const r = await readRosterPackage(bulk());
    expect(r.problems).toEqual([]);
  });

  it("a 年度 whose title is not 「YYYY年度」 of its schoolYear", async () => {
    for (const title of ["令和8年度", "2026", "2025年度", "２０２６年度"]) {
      const r = await readRosterPackage(
        editFile(
          bulk(),
          "academicSessions.csv",
          replaceLine(2, (l) => l.replace('"2026年度"', `"${title}"`)),
        ),
      );
      expect(where(r.problems)).toEqual(["sessionTitle academicSessions.csv:2 title"]);
      expect(r.problems[0]!.message).toContain("「2026年度」");
      expect(r.set).toBeNull();
    }
  });

  it("a courseCode (the profile fixes it empty), enabledUser false, a primary student enrollment, a primary principal", async () => {
    let files = editFile(
      bulk(),
      "courses.csv",
      replaceLine(2, (l) => l.replace('"2026年度1年ホームルーム",""', '"2026年度1年ホームルーム","HR1"')),
    );
    files = editFile(
      files,
      "users.csv",
      replaceLine(4, (l) => l.replace('"","","true"', '"","","false"')),
    );
    files = editFile(
      files,
      "enrollments.csv",
      replaceLine(3, (l) => l.replace('"student","false"', '"student","true"')),
    );
    files = editFile(
      files,
      "roles.csv",
      replaceLine(3, (l) => l.replace('"secondary","principal"', '"primary","principal"')),
    );
    const r = await readRosterPackage(files);
    expect(where(r.problems).sort()).toEqual([
      "adminPrimary roles.csv:3 roleType",
      "enabledUserFalse users.csv:4 enabledUser",
      "fieldNotEmpty courses.csv:2 courseCode",
      "studentPrimary enrollments.csv:3 primary",
    ]);
    expect(r.set).toBeNull();
  });

  it("a school identifier that is not a 13-character 学校コード, a district one that is not 6 digits", async () => {
    let files = editFile(
      bulk(),
      "orgs.csv",
      replaceLine(3, (l) => l.replace('"C113210000019"', '"C11321000001"')),
    );
    files = editFile(
      files,
      "orgs.csv",
      replaceLine(2, (l) => l.replace('"131000"', '"13100X"')),
    );
    const r = await readRosterPackage(files);
    expect(where(r.problems)).toEqual(["orgIdentifier orgs.csv:2 identifier", "orgIdentifier orgs.csv:3 identifier"]);
  });

  it("a name longer than 128 characters (counted as characters, not UTF-16 units)", async () => {
    const ok = "𠮷".repeat(128);
    const fine = await readRosterPackage(
      editFile(
        bulk(),
        "users.csv",
        replaceLine(4, (l) => l.replace('"太郎","佐藤"', `"${ok}","佐藤"`)),
      ),
    );
    expect(fine.problems).toEqual([]);
    const r = await readRosterPackage(
      editFile(
        bulk(),
        "users.csv",
        replaceLine(4, (l) => l.replace('"太郎","佐藤"', `"${"あ".repeat(129)}","佐藤"`)),
      ),
    );
    expect(where(r.problems)).toEqual(["fieldTooLong users.csv:4 givenName"]);
  });

  it("学校コード shape: any A–H, 1 or 2, then 11 digits passes; one character more, fewer or other fails", () => {
    const code = fc
      .tuple(fc.constantFrom(..."ABCDEFGH"), fc.constantFrom("1", "2"), fc.stringMatching(/^[0-9]{11}$/))
      .map(([a, b, c]) => a + b + c);
    fc.assert(
      fc.property(
        code,
        (c) =>
          SCHOOL_CODE.test(c) &&
          !SCHOOL_CODE.test(`${c}0`) &&
          !SCHOOL_CODE.test(c.slice(0, 12)) &&
          !SCHOOL_CODE.test(`Z${c.slice(1)}`),
      ),
    );
    expect(SCHOOL_CODE.test("F112310102342")).toBe(true); // the published example of a 学校コード
  });
});
