import fc from "fast-check";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { toKatakana } from "@/features/activities/shared/furigana-align";
import { PROFILE_NAMES, ROSTER_PROFILES, USER_COLUMNS_27 } from "@/features/rostering/shared/oneroster-columns";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { quoteField, writeRosterPackage, zipRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { rosterSet } from "../../../tests/support/oneroster-arbitrary";
import { loadFixture } from "../../../tests/support/oneroster-fixture";

const dec = new TextDecoder();
const lines = (bytes: Uint8Array) => dec.decode(bytes).split("\r\n");

/** The set without line numbers and with readings in katakana: what a write → read must give back. */
function normal(set: RosterSet): RosterSet {
  const strip = <T extends { line: number }>(rows: T[]) => rows.map((r) => ({ ...r, line: 0 }));
  const k = (s: string | null) => (s === null ? null : toKatakana(s));
  return {
    ...set,
    academicSessions: strip(set.academicSessions),
    orgs: strip(set.orgs),
    courses: strip(set.courses),
    classes: strip(set.classes),
    roles: strip(set.roles),
    enrollments: strip(set.enrollments),
    users: strip(set.users).map((u) => ({
      ...u,
      kanaGivenName: k(u.kanaGivenName),
      kanaFamilyName: k(u.kanaFamilyName),
      kanaMiddleName: k(u.kanaMiddleName),
    })),
  };
}

describe("OneRoster writer: what strict receivers accept", () => {
  it("writes exact unquoted headers, every data field quoted, UTF-8 without BOM, CRLF, all 21 manifest rows", async () => {
    const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
    const files = writeRosterPackage(set!);
    expect(Object.keys(files).sort()).toEqual(
      ["academicSessions", "classes", "courses", "enrollments", "manifest", "orgs", "roles", "users"].map(
        (f) => `${f}.csv`,
      ),
    );
    for (const bytes of Object.values(files)) {
      expect([...bytes.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
      expect(dec.decode(bytes)).not.toMatch(/[^\r]\n/);
      expect(dec.decode(bytes).endsWith("\r\n")).toBe(true);
    }
    const manifest = lines(files["manifest.csv"]!);
    expect(manifest[0]).toBe("propertyName,value");
    expect(manifest.slice(1, 3)).toEqual(['"manifest.version","1.0"', '"oneroster.version","1.2"']);
    expect(manifest.filter((l) => l.startsWith('"file.'))).toHaveLength(21);
    expect(manifest).toContain('"file.users","bulk"');
    expect(manifest).toContain('"file.userProfiles","absent"');
    expect(manifest).toContain('"file.demographics","absent"');
    const users = lines(files["users.csv"]!);
    expect(users[0]).toBe(USER_COLUMNS_27.map((c) => c.name).join(","));
    expect(users[0]!.split(",")).toHaveLength(27);
    for (const line of users.slice(1, -1)) expect(line).toMatch(/^"([^"]|"")*"(,"([^"]|"")*")*$/);
    expect(users.slice(1, -1).every((l) => l.startsWith('"') && l.split('","').length >= 27)).toBe(true);
    expect(lines(files["enrollments.csv"]!)[0]!.endsWith("metadata.jp.ShussekiNo,metadata.jp.PublicFlg")).toBe(true);
    const session = lines(files["academicSessions.csv"]!)[1]!;
    expect(session).toBe(
      '"10000000-0000-4000-8000-000000000001","","","2026年度","schoolYear","2026-04-01","2027-03-31","NULL","2026"',
    );
    expect(dec.decode(files["users.csv"])).toContain('"健, ""ケン"""');
  });

  it("quotes every field and doubles embedded quotes", () => {
    expect(quoteField(null)).toBe('""');
    expect(quoteField("")).toBe('""');
    expect(quoteField('a"b,c')).toBe('"a""b,c"');
    expect(quoteField(["J1", "J2"])).toBe('"J1,J2"');
    expect(quoteField(false)).toBe('"false"');
    expect(quoteField(3)).toBe('"3"');
  });

  it("writes readings in full-width katakana, a bulk set without status or deleted rows", async () => {
    const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
    const edited: RosterSet = {
      ...set!,
      users: set!.users.map((u, i) =>
        i === 2 ? { ...u, kanaGivenName: "たろう", status: "active", dateLastModified: "2026-05-01T00:00:00Z" } : u,
      ),
      roles: set!.roles.map((r, i) => (i === 0 ? r : i === 6 ? { ...r, status: "tobedeleted" } : r)),
    };
    const files = writeRosterPackage(edited);
    const row = lines(files["users.csv"]!)[3]!;
    expect(row).toContain('"タロウ"');
    expect(row.startsWith('"50000000-0000-4000-8000-000000000011","",""')).toBe(true);
    expect(lines(files["roles.csv"]!)).toHaveLength(set!.roles.length + 1); // header + rows − 1 deleted + final ""
  });

  it("zips the files at the zip's root; the same set and time give the same bytes", async () => {
    const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
    const mtime = new Date("2026-04-01T00:00:00Z");
    const zip = zipRosterPackage(set!, { mtime });
    expect(Object.keys(unzipSync(zip)).every((n) => !n.includes("/"))).toBe(true);
    expect(zipRosterPackage(set!, { mtime })).toEqual(zip);
  });
});

describe("OneRoster round trip (fast-check)", () => {
  it("any valid set → write → read gives the same set (line numbers aside, readings in katakana), in every profile", async () => {
    await fc.assert(
      fc.asyncProperty(rosterSet, fc.constantFrom(...PROFILE_NAMES), async (set, profile) => {
        const { set: back, problems } = await readRosterPackage(writeRosterPackage(set, { profile }));
        expect(problems).toEqual([]);
        const { onerosterVersion } = ROSTER_PROFILES[profile];
        const { shussekiColumn: _spelled, ...read } = back!; // how the read file spelled 出席番号 (the profile's own spelling)
        expect(normal(read)).toEqual(normal({ ...set, manifest: { ...set.manifest, onerosterVersion, profile } }));
      }),
      { numRuns: 60 },
    );
  });

  type Field = { file: keyof Omit<RosterSet, "manifest">; field: string; bad: unknown; code: string };
  const CORRUPTIONS: Field[] = [
    { file: "academicSessions", field: "type", bad: "year", code: "fieldEnum" },
    { file: "academicSessions", field: "startDate", bad: "2026-13-01", code: "fieldDate" },
    { file: "orgs", field: "type", bad: "company", code: "fieldEnum" },
    { file: "orgs", field: "name", bad: "", code: "fieldRequired" },
    { file: "courses", field: "orgSourcedId", bad: "not-a-uuid", code: "fieldUuid" },
    { file: "courses", field: "title", bad: "", code: "fieldRequired" },
    { file: "classes", field: "classType", bad: "club", code: "fieldEnum" },
    { file: "classes", field: "courseSourcedId", bad: "1234", code: "fieldUuid" },
    { file: "classes", field: "termSourcedIds", bad: [], code: "fieldRequired" },
    { file: "users", field: "username", bad: "", code: "fieldRequired" },
    { file: "users", field: "sourcedId", bad: "u-1", code: "fieldUuid" },
    { file: "roles", field: "role", bad: "admin", code: "fieldEnum" },
    { file: "roles", field: "beginDate", bad: "2026/04/01", code: "fieldDate" },
    { file: "enrollments", field: "role", bad: "pupil", code: "fieldEnum" },
    { file: "enrollments", field: "userSourcedId", bad: "", code: "fieldRequired" },
    { file: "enrollments", field: "beginDate", bad: "2026-02-30", code: "fieldDate" },
  ];

  it("any single corrupted field is reported at its file, line and column, and gives no set", async () => {
    await fc.assert(
      fc.asyncProperty(rosterSet, fc.constantFrom(...CORRUPTIONS), fc.nat(), async (set, c, pick) => {
        const clean = await readRosterPackage(writeRosterPackage(set));
        const rows = clean.set![c.file] as { line: number }[];
        const at = pick % rows.length;
        const corrupted = {
          ...set,
          [c.file]: (set[c.file] as object[]).map((r, i) => (i === at ? { ...r, [c.field]: c.bad } : r)),
        };
        const { set: back, problems } = await readRosterPackage(writeRosterPackage(corrupted as RosterSet));
        expect(back).toBeNull();
        expect(problems.map((p) => `${p.code} ${p.file}:${p.line} ${p.column}`)).toContain(
          `${c.code} ${c.file}.csv:${rows[at]!.line} ${c.field}`,
        );
      }),
      { numRuns: 80 },
    );
  });
});
