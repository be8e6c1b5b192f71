/** The typed row of each file from its checked field values. Pure. */
import type { ReadFile } from "./oneroster-columns";
import type { Value } from "./oneroster-fields";
import type {
  AcademicSession,
  Enrollment,
  Org,
  RosterClass,
  RosterRole,
  RosterSet,
  RosterUser,
  RowMeta,
} from "./oneroster-model";

export type Get = (name: string) => Value;
type RowOf<F extends ReadFile> = RosterSet[F][number];

const str = (v: Value): string => (typeof v === "string" ? v : "");
const opt = (v: Value): string | null => (typeof v === "string" && v !== "" ? v : null);
const list = (v: Value): string[] => (Array.isArray(v) ? v : []);
const bool = (v: Value): boolean | null => (typeof v === "boolean" ? v : null);
const int = (v: Value): number | null => (typeof v === "number" ? v : null);

const status = (get: Get) => opt(get("status")) as RowMeta["status"];

// Rows are object literals with every field written out: a spread (`...meta`) would give V8
// dictionary-mode objects, several times larger — 100,000 users would then take ~100 MB more.

const BUILDERS: { [F in ReadFile]: (get: Get, line: number) => RowOf<F> } = {
  academicSessions: (get, line): AcademicSession => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    title: str(get("title")),
    type: str(get("type")),
    startDate: str(get("startDate")),
    endDate: str(get("endDate")),
    schoolYear: int(get("schoolYear")) ?? 0,
  }),
  orgs: (get, line): Org => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    name: str(get("name")),
    type: str(get("type")) as Org["type"],
    identifier: opt(get("identifier")),
    parentSourcedId: opt(get("parentSourcedId")),
  }),
  courses: (get, line) => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    schoolYearSourcedId: opt(get("schoolYearSourcedId")),
    title: str(get("title")),
    grades: list(get("grades")),
    orgSourcedId: str(get("orgSourcedId")),
    subjects: list(get("subjects")),
    subjectCodes: list(get("subjectCodes")),
  }),
  classes: (get, line): RosterClass => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    title: str(get("title")),
    grades: list(get("grades")),
    courseSourcedId: str(get("courseSourcedId")),
    classCode: opt(get("classCode")),
    classType: str(get("classType")) as RosterClass["classType"],
    location: opt(get("location")),
    schoolSourcedId: str(get("schoolSourcedId")),
    termSourcedIds: list(get("termSourcedIds")),
    subjects: list(get("subjects")),
    subjectCodes: list(get("subjectCodes")),
    specialNeeds: bool(get("metadata.jp.specialNeeds")),
  }),
  users: (get, line): RosterUser => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    enabledUser: bool(get("enabledUser")) ?? true,
    username: str(get("username")),
    userIds: list(get("userIds")),
    givenName: str(get("givenName")),
    familyName: str(get("familyName")),
    middleName: opt(get("middleName")),
    identifier: opt(get("identifier")),
    email: opt(get("email")),
    grades: list(get("grades")),
    userMasterIdentifier: opt(get("userMasterIdentifier")),
    preferredGivenName: opt(get("preferredGivenName")),
    preferredFamilyName: opt(get("preferredFamilyName")),
    preferredMiddleName: opt(get("preferredMiddleName")),
    primaryOrgSourcedId: opt(get("primaryOrgSourcedId")),
    kanaGivenName: opt(get("metadata.jp.kanaGivenName")),
    kanaFamilyName: opt(get("metadata.jp.kanaFamilyName")),
    kanaMiddleName: opt(get("metadata.jp.kanaMiddleName")),
    homeClass: opt(get("metadata.jp.homeClass")),
  }),
  roles: (get, line): RosterRole => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    userSourcedId: str(get("userSourcedId")),
    roleType: str(get("roleType")) as RosterRole["roleType"],
    role: str(get("role")) as RosterRole["role"],
    orgSourcedId: str(get("orgSourcedId")),
    beginDate: opt(get("beginDate")),
    endDate: opt(get("endDate")),
  }),
  enrollments: (get, line): Enrollment => ({
    sourcedId: str(get("sourcedId")),
    status: status(get),
    dateLastModified: opt(get("dateLastModified")),
    line,
    classSourcedId: str(get("classSourcedId")),
    schoolSourcedId: str(get("schoolSourcedId")),
    userSourcedId: str(get("userSourcedId")),
    role: str(get("role")) as Enrollment["role"],
    primary: bool(get("primary")),
    beginDate: opt(get("beginDate")),
    endDate: opt(get("endDate")),
    shussekiNo: int(get("metadata.jp.ShussekiNo")) ?? int(get("metadata.jp.shussekiNo")),
    publicFlg: bool(get("metadata.jp.PublicFlg")) ?? bool(get("metadata.jp.publicFlg")),
  }),
};

export function buildRow<F extends ReadFile>(file: F, get: Get, line: number): RowOf<F> {
  return BUILDERS[file](get, line);
}
