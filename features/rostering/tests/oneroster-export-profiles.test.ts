import { describe, expect, it } from "vitest";
import { ROSTER_PROFILES } from "@/features/rostering/shared/oneroster-columns";
import type { RosterSet } from "@/features/rostering/shared/oneroster-model";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { writeRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { loadFixture } from "../../../tests/support/oneroster-fixture";

/**
 * The writer offers each published Japan profile a receiver may be configured for: the exact
 * header rows and manifest rows of each (meibo's profile definitions), and delta sets.
 */
const dec = new TextDecoder();
const lines = (bytes: Uint8Array | undefined) => dec.decode(bytes).split("\r\n");
const header = (files: Record<string, Uint8Array>, file: string) => lines(files[`${file}.csv`])[0];

const SAME_IN_EVERY_PROFILE = {
  academicSessions: "sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear",
  orgs: "sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId",
  courses:
    "sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes",
  classes:
    "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods,metadata.jp.specialNeeds",
  roles:
    "sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId",
};
const USERS_HEAD =
  "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier";
const USERS_TAIL =
  "preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns,metadata.jp.kanaGivenName,metadata.jp.kanaFamilyName,metadata.jp.kanaMiddleName,metadata.jp.homeClass";
const ENROLLMENTS_HEAD =
  "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate";

const EXPECTED = {
  "1.2": {
    users: `${USERS_HEAD},resourceSourcedIds,${USERS_TAIL}`,
    enrollments: `${ENROLLMENTS_HEAD},metadata.jp.ShussekiNo,metadata.jp.PublicFlg`,
  },
  "1.2.1": {
    users: `${USERS_HEAD},${USERS_TAIL},metadata.jp.kanaPreferredFamilyName,metadata.jp.kanaPreferredGivenName,metadata.jp.kanaPreferredMiddleName`,
    enrollments: `${ENROLLMENTS_HEAD},metadata.jp.ShussekiNo,metadata.jp.PublicFlg`,
  },
  "1.2_JP": {
    users: `${USERS_HEAD},${USERS_TAIL},metadata.jp.kanaPreferredFamilyName,metadata.jp.kanaPreferredGivenName,metadata.jp.kanaPreferredMiddleName`,
    enrollments: `${ENROLLMENTS_HEAD},metadata.jp.shussekiNo,metadata.jp.publicFlg`,
  },
} as const;

const manifestRows = (version: string, mode: (file: string) => string) => [
  "propertyName,value",
  '"manifest.version","1.0"',
  `"oneroster.version","${version}"`,
  ...[
    "academicSessions",
    "categories",
    "classes",
    "classResources",
    "courses",
    "courseResources",
    "demographics",
    "enrollments",
    "lineItemLearningObjectiveIds",
    "lineItems",
    "lineItemScoreScales",
    "orgs",
    "resources",
    "resultLearningObjectiveIds",
    "results",
    "resultScoreScales",
    "roles",
    "scoreScales",
    "userProfiles",
    "userResources",
    "users",
  ].map((f) => `"file.${f}","${mode(f)}"`),
];
const SEVEN = new Set(["academicSessions", "orgs", "courses", "classes", "users", "roles", "enrollments"]);

describe("OneRoster writer: one choice of profile", () => {
  it("offers the three published profiles", () => {
    expect(Object.keys(ROSTER_PROFILES)).toEqual(["1.2", "1.2.1", "1.2_JP"]);
  });

  for (const [profile, expected] of Object.entries(EXPECTED)) {
    it(`profile ${profile}: exact header rows and manifest rows, read back as that profile`, async () => {
      const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
      const files = writeRosterPackage(set!, { profile: profile as keyof typeof EXPECTED });
      expect(header(files, "users")).toBe(expected.users);
      expect(header(files, "enrollments")).toBe(expected.enrollments);
      for (const [file, row] of Object.entries(SAME_IN_EVERY_PROFILE)) expect(header(files, file)).toBe(row);
      expect(lines(files["manifest.csv"]).slice(0, 24)).toEqual(
        manifestRows(profile, (f) => (SEVEN.has(f) ? "bulk" : "absent")),
      );
      // every data row has as many fields as its header
      const users = lines(files["users.csv"]).slice(1, -1);
      for (const row of users) expect(row.split('","')).toHaveLength(expected.users.split(",").length);

      const back = await readRosterPackage(files);
      expect(back.problems).toEqual([]);
      expect(back.set!.manifest).toMatchObject({ onerosterVersion: profile, profile });
      expect(back.set!.enrollments.map((e) => e.shussekiNo)).toEqual(set!.enrollments.map((e) => e.shussekiNo));
    });
  }

  it("profile 1.2.1 and 1.2_JP: the preferred names' readings are the readings when the preferred name is the name", async () => {
    const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
    const files = writeRosterPackage(set!, { profile: "1.2_JP" });
    const row = lines(files["users.csv"])[1]!.slice(1, -1).split('","');
    expect(row.slice(-7)).toEqual(["イチロウ", "コウチョウ", "", "", "コウチョウ", "イチロウ", ""]);
  });

  it("a set read in one profile is written in it again unless another is asked for", async () => {
    const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
    const k12 = await readRosterPackage(writeRosterPackage(set!, { profile: "1.2_JP" }));
    expect(header(writeRosterPackage(k12.set!), "enrollments")).toBe(EXPECTED["1.2_JP"].enrollments);
    expect(header(writeRosterPackage(k12.set!, { profile: "1.2" }), "enrollments")).toBe(EXPECTED["1.2"].enrollments);
  });

  it("a delta set: its files marked delta, rows with status and dateLastModified, tobedeleted rows kept, other files absent", async () => {
    const { set } = await readRosterPackage(loadFixture("bulk-jhs"));
    const files = Object.fromEntries(
      Object.entries(set!.manifest.files).map(([f, m]) => [
        f,
        f === "users" || f === "enrollments" ? "delta" : m === "bulk" ? "absent" : m,
      ]),
    );
    const at = "2026-11-29T07:00:00.000Z";
    const delta: RosterSet = {
      ...set!,
      manifest: { ...set!.manifest, files: files as RosterSet["manifest"]["files"] },
      users: set!.users
        .slice(0, 2)
        .map((u, i) => ({ ...u, status: i === 0 ? "tobedeleted" : "active", dateLastModified: at })),
      enrollments: set!.enrollments.slice(0, 1).map((e) => ({ ...e, status: "active", dateLastModified: at })),
    };
    const written = writeRosterPackage(delta, { profile: "1.2_JP" });
    expect(Object.keys(written).sort()).toEqual(["enrollments.csv", "manifest.csv", "users.csv"]);
    expect(lines(written["manifest.csv"]).slice(0, 24)).toEqual(
      manifestRows("1.2_JP", (f) => (f === "users" || f === "enrollments" ? "delta" : "absent")),
    );
    const users = lines(written["users.csv"]);
    expect(users).toHaveLength(4);
    expect(users[1]!.startsWith(`"${set!.users[0]!.sourcedId}","tobedeleted","${at}","true"`)).toBe(true);
    expect(users[2]!.startsWith(`"${set!.users[1]!.sourcedId}","active","${at}","true"`)).toBe(true);
    const back = await readRosterPackage(written, { known: () => true });
    expect(back.problems).toEqual([]);
    expect(back.set!.users.map((u) => [u.status, u.dateLastModified])).toEqual([
      ["tobedeleted", at],
      ["active", at],
    ]);
  });
});
