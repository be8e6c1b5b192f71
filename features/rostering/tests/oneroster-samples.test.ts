import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROSTER_FILES } from "@/features/rostering/shared/oneroster-files";
import { readRosterPackage } from "@/features/rostering/server/oneroster-read";
import { quoteField } from "@/features/rostering/shared/oneroster-write";
import { FIXTURES, where } from "../../../tests/support/oneroster-fixture";

/* eslint-disable @typescript-eslint/no-explicit-any -- the published JSON, read as it is */
const json = (name: string): any =>
  JSON.parse(readFileSync(path.join(FIXTURES, "da2022-rest-I", `${name}.json`), "utf8"));
const enc = new TextEncoder();
const csv = (header: string, rows: unknown[][]) =>
  enc.encode(
    [header, ...rows.map((r) => r.map((v) => quoteField(v as string))).map((r) => r.join(","))].join("\r\n") + "\r\n",
  );

/** The DA2022 REST sample as the delta CSV set a 校務 system would send; `terms` replaces the sample's empty terms. */
function sampleAsCsv(terms: string[]): Record<string, Uint8Array> {
  const delta = new Set(["orgs", "classes", "users", "enrollments"]);
  const manifest = enc.encode(
    [
      "propertyName,value",
      "manifest.version,1.0",
      "oneroster.version,1.2",
      ...ROSTER_FILES.map((f) => `file.${f},${delta.has(f) ? "delta" : "absent"}`),
    ].join("\r\n") + "\r\n",
  );
  const o = json("orgs").orgs[0];
  const c = json("classes").classes[0];
  const u = json("users").users[0];
  const e = json("enrollments").enrollments[0];
  return {
    "manifest.csv": manifest,
    "orgs.csv": csv("sourcedId,status,dateLastModified,name,type,identifier,parentSourcedId", [
      [o.sourcedId, o.status, o.dateLastModified, o.name, o.type, o.identifier, o.parent.sourcedId],
    ]),
    "classes.csv": csv(
      "sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods,metadata.jp.specialNeeds",
      [
        [
          c.sourcedId,
          c.status,
          c.dateLastModified,
          c.title,
          c.grades.join(","),
          c.course.sourcedId,
          c.classCode,
          c.classType,
          "",
          c.school.sourcedId,
          [...c.terms.map((t: any) => t.sourcedId), ...terms].join(","),
          "",
          "",
          "",
          String(c.metadata.jp.specialNeeds),
        ],
      ],
    ),
    "users.csv": csv(
      "sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns,metadata.jp.kanaGivenName,metadata.jp.kanaFamilyName,metadata.jp.kanaMiddleName,metadata.jp.homeClass",
      [
        [
          u.sourcedId,
          u.status,
          u.dateLastModified,
          String(u.enabledUser),
          u.username,
          "",
          u.givenName,
          u.familyName,
          "",
          "",
          "",
          "",
          "",
          "",
          u.grades.join(","),
          "",
          u.userMasterIdentifier,
          "",
          "",
          "",
          "",
          u.primaryOrg.sourcedId,
          "",
          u.metadata.jp.kanaGivenName,
          u.metadata.jp.kanaFamilyName,
          u.metadata.jp.kanaMiddleName,
          c.sourcedId,
        ],
      ],
    ),
    "enrollments.csv": csv(
      "sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate,metadata.jp.shussekiNo,metadata.jp.publicFlg",
      [
        [
          e.sourcedId,
          e.status,
          e.dateLastModified,
          e.class.sourcedId,
          e.school.sourcedId,
          e.user.sourcedId,
          e.role,
          String(e.primary),
          "",
          "",
          e.metadata.jp.shussekiNo,
          e.metadata.jp.publicFlg === undefined ? "" : String(e.metadata.jp.publicFlg),
        ],
      ],
    ),
  };
}

const SESSION = "6f1d5a43-2f4e-4b8a-9a43-2b9b4b1c0f00";
/** The rows the sample points at but does not include: its course, the school's 教育委員会, our 年度. */
const known = (kind: string, id: string) =>
  (kind === "courses" && id === "1dd2f3c3-fc9c-4e7a-bc58-df2bef4b80f4") ||
  (kind === "orgs" && id === "4310427b-9338-4542-97c3-cb5243f67038") ||
  (kind === "academicSessions" && id === SESSION);

describe("OneRoster reader over the published DA2022 sample (I社 REST JSON as CSV)", () => {
  it("reports the sample's empty termSourcedIds, which a class requires", async () => {
    const r = await readRosterPackage(sampleAsCsv([]), { known });
    expect(r.set).toBeNull();
    expect(where(r.problems)).toEqual(["fieldRequired classes.csv:2 termSourcedIds"]);
  });

  it("reads the school, 1年1組, the student's katakana reading and 出席番号 1 once a 年度 is given", async () => {
    const { set, problems } = await readRosterPackage(sampleAsCsv([SESSION]), { known });
    expect(problems).toEqual([]);
    expect(set!.orgs[0]).toMatchObject({
      name: "digital学校",
      type: "school",
      identifier: "A123456789012",
      status: "active",
    });
    expect(set!.classes[0]).toMatchObject({
      title: "1年1組",
      classCode: "0101",
      classType: "homeroom",
      grades: ["P1"],
      specialNeeds: false,
    });
    expect(set!.users[0]).toMatchObject({
      familyName: "てすと",
      kanaFamilyName: "テスト",
      kanaGivenName: "タロウ",
      kanaMiddleName: null,
      dateLastModified: "2023-01-23T01:48:55.101Z",
    });
    // The sample spells its flag `publickFlg`, so the CSV has no PublicFlg: read as unknown (null).
    expect(set!.enrollments[0]).toMatchObject({ role: "student", primary: false, shussekiNo: 1, publicFlg: null });
  });
});
