/**
 * The Japan Profile rules the Digital Agency's strict validators check, each with a negative fixture
 * of ours (tests/fixtures/oneroster/negative/<rule>/): the bulk-jhs set with one file replaced by the
 * copy in the folder, and `expected.txt` the problems the reader must report — and no set.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROSTER_PROBLEM_CODES, rosterProblem } from "@/features/rostering/shared/oneroster-problems";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { importProblem, ROSTER_IMPORT_CODES } from "@/features/rostering/shared/problems";
import { FIXTURES, loadFixture, where } from "../../../tests/support/oneroster-fixture";

const NEGATIVE = path.join(FIXTURES, "negative");
const RULES = readdirSync(NEGATIVE).sort();

describe("negative fixtures of the validator rules", () => {
  it("cover every rule: UUID sourcedIds, 年度 titles, school and board codes, grades, subject codes, full-width kana, primary roles", () => {
    expect(RULES).toEqual([
      "admin-primary",
      "board-code",
      "grade",
      "half-width-kana",
      "nendo-title",
      "school-code",
      "sourcedid-not-uuid",
      "student-primary",
      "subject-code",
    ]);
  });

  it.each(RULES)(
    "%s: refused at the file, line and column, with a message naming them and saying what to do",
    async (rule) => {
      const dir = path.join(NEGATIVE, rule);
      const files = loadFixture("bulk-jhs");
      for (const name of readdirSync(dir).filter((f) => f.endsWith(".csv")))
        files[name] = new Uint8Array(readFileSync(path.join(dir, name)));
      const expected = readFileSync(path.join(dir, "expected.txt"), "utf8").trim().split("\n");
      const read = await readRosterPackage(files);
      expect(read.set).toBeNull();
      expect(where(read.problems)).toEqual(expected);
      for (const p of read.problems) {
        expect(p.message).toContain(`${p.file} の ${p.line} 行目「${p.column}」`);
        expect(p.message).toContain("ください");
      }
    },
  );
});

describe("a missing file names the file that was sent instead", () => {
  it("users (1).csv and Manifest.csv, as a browser's download or a hand rename leaves them: the problem names them and the name to give", async () => {
    const { "users.csv": users, ...rest } = loadFixture("bulk-jhs");
    const renamed = await readRosterPackage({ ...rest, "users (1).csv": users! });
    expect(where(renamed.problems)).toEqual(["fileMissing users.csv:0 "]);
    expect(renamed.problems[0]!.message).toBe(
      "users.csv がありません。送られた「users (1).csv」が users.csv のつもりなら、名前を users.csv に変えてください（大文字と小文字も同じにします）。",
    );
    const { "manifest.csv": manifest, ...others } = loadFixture("bulk-jhs");
    const upper = await readRosterPackage({ ...others, "Manifest.csv": manifest! });
    expect(upper.problems.map((p) => p.message)).toEqual([
      "manifest.csv がありません。送られた「Manifest.csv」が manifest.csv のつもりなら、名前を manifest.csv に変えてください（大文字と小文字も同じにします）。",
    ]);
    const gone = await readRosterPackage(others);
    expect(gone.problems.map((p) => p.message)).toEqual([
      "manifest.csv がありません。OneRoster の CSV 一式には manifest.csv が必要です。manifest.csv を入れてください。",
    ]);
  });
});

describe("every problem says what to do", () => {
  const params = {
    value: "x",
    expected: "y",
    other: 2,
    encoding: "Shift_JIS",
    position: 3,
    count: 1000,
    max: 128,
    grade: 1,
    className: "1",
    number: 4,
    type: "school",
    sent: "none",
  };
  // emailTaken and idUnusable say only that the value cannot be used (the dry run is no oracle)
  const IMPORT_CODES = ROSTER_IMPORT_CODES.filter((c) => c !== "emailTaken" && c !== "idUnusable");
  it.each([...ROSTER_PROBLEM_CODES])("reader problem %s: what was expected and what to do", (code) => {
    expect(rosterProblem(code, "users.csv", 4, "givenName", params).message).toContain("ください");
  });
  it.each(IMPORT_CODES)("import problem %s: names file, line and column, and what to do", (code) => {
    const message = importProblem(code, "enrollments.csv", 5, "metadata.jp.shussekiNo", params).message;
    expect(message).toContain("enrollments.csv の 5 行目「metadata.jp.shussekiNo」");
    expect(message).toContain("ください");
  });
});
