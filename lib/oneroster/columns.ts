/**
 * The columns of each file the product reads, in order (OneRoster 1.2 CSV, Japan Profile row 1),
 * with the header variants other profile versions use. docs/oneroster.md gives the sources.
 */
import type { RosterFile } from "./model";

export type Kind =
  | "id" | "ref" | "refs" | "text" | "name" | "enum" | "date" | "dateTime" | "bool" | "grades" | "subjectCodes" | "int" | "list" | "status" | "ignored";

export interface Column {
  name: string;
  kind: Kind;
  required?: boolean;
  values?: readonly string[];
  /** The file a ref/refs column points into. */
  target?: RosterFile;
  /** The Japan Profile fixes this column empty (courses.courseCode). */
  mustBeEmpty?: boolean;
  /** Characters at most ("name" columns: NAME_MAX unless set). */
  max?: number;
}

/** The longest name or title a strict checker of the profile accepts ([DA-X] caps names at 128). */
export const NAME_MAX = 128;

const id: Column = { name: "sourcedId", kind: "id", required: true };
const meta: Column[] = [id, { name: "status", kind: "status" }, { name: "dateLastModified", kind: "dateTime" }];
const c = (name: string, kind: Kind, extra: Partial<Column> = {}): Column => ({ name, kind, ...extra });
const R = { required: true };

export const ORG_TYPES = ["school", "district"] as const;
export const SESSION_TYPES = ["schoolYear", "term", "semester", "gradingPeriod"] as const;
export const CLASS_TYPES = ["homeroom", "scheduled"] as const;
export const ROLE_TYPES = ["primary", "secondary"] as const;
export const ROLES = [
  "student", "teacher", "guardian", "principal", "siteAdministrator", "districtAdministrator",
  "aide", "counselor", "parent", "proctor", "relative", "systemAdministrator",
] as const;
export const ENROLLMENT_ROLES = ["student", "teacher", "administrator", "proctor", "guardian"] as const;

export const ACADEMIC_SESSION_COLUMNS: Column[] = [
  ...meta, c("title", "name", R), c("type", "enum", { ...R, values: SESSION_TYPES }), c("startDate", "date", R),
  c("endDate", "date", R), c("parentSourcedId", "ignored"), c("schoolYear", "int", R),
];
export const ORG_COLUMNS: Column[] = [
  ...meta, c("name", "name", R), c("type", "enum", { ...R, values: ORG_TYPES }), c("identifier", "text"),
  c("parentSourcedId", "ref", { target: "orgs" }),
];
export const COURSE_COLUMNS: Column[] = [
  ...meta, c("schoolYearSourcedId", "ref", { target: "academicSessions" }), c("title", "name", R), c("courseCode", "text", { mustBeEmpty: true }),
  c("grades", "grades"), c("orgSourcedId", "ref", { ...R, target: "orgs" }), c("subjects", "list"), c("subjectCodes", "subjectCodes"),
];
export const CLASS_COLUMNS: Column[] = [
  ...meta, c("title", "name", R), c("grades", "grades"), c("courseSourcedId", "ref", { ...R, target: "courses" }),
  c("classCode", "text"), c("classType", "enum", { ...R, values: CLASS_TYPES }), c("location", "name"),
  c("schoolSourcedId", "ref", { ...R, target: "orgs" }), c("termSourcedIds", "refs", { ...R, target: "academicSessions" }),
  c("subjects", "list"), c("subjectCodes", "subjectCodes"), c("periods", "list"), c("metadata.jp.specialNeeds", "bool"),
];
const USER_HEAD: Column[] = [
  ...meta, c("enabledUser", "bool", R), c("username", "text", R), c("userIds", "list"), c("givenName", "name", R),
  c("familyName", "name", R), c("middleName", "name"), c("identifier", "text"), c("email", "text"), c("sms", "ignored"),
  c("phone", "ignored"), c("agentSourcedIds", "ignored"), c("grades", "grades"), c("password", "ignored"),
  c("userMasterIdentifier", "text"),
];
const USER_PREFERRED: Column[] = [
  c("preferredGivenName", "name"), c("preferredMiddleName", "name"), c("preferredFamilyName", "name"),
  c("primaryOrgSourcedId", "ref", { target: "orgs" }), c("pronouns", "ignored"), c("metadata.jp.kanaGivenName", "name"),
  c("metadata.jp.kanaFamilyName", "name"), c("metadata.jp.kanaMiddleName", "name"),
  c("metadata.jp.homeClass", "ref", { target: "classes" }),
];
/** Japan Profile rev.2 / eポータル v3 (OneRoster 1.2): 27 columns — what the writer writes. */
export const USER_COLUMNS_27: Column[] = [...USER_HEAD, c("resourceSourcedIds", "ignored"), ...USER_PREFERRED];
/** Japan Profile 1.2.1 / K-12 (OneRoster 1.2.1): no resourceSourcedIds, three kanaPreferred* at the end. */
export const USER_COLUMNS_29: Column[] = [
  ...USER_HEAD, ...USER_PREFERRED, c("metadata.jp.kanaPreferredFamilyName", "name"),
  c("metadata.jp.kanaPreferredGivenName", "name"), c("metadata.jp.kanaPreferredMiddleName", "name"),
];
export const ROLE_COLUMNS: Column[] = [
  ...meta, c("userSourcedId", "ref", { ...R, target: "users" }), c("roleType", "enum", { ...R, values: ROLE_TYPES }),
  c("role", "enum", { ...R, values: ROLES }), c("beginDate", "date"), c("endDate", "date"),
  c("orgSourcedId", "ref", { ...R, target: "orgs" }), c("userProfileSourcedId", "ignored"),
];
const ENROLLMENT_HEAD: Column[] = [
  ...meta, c("classSourcedId", "ref", { ...R, target: "classes" }), c("schoolSourcedId", "ref", { ...R, target: "orgs" }),
  c("userSourcedId", "ref", { ...R, target: "users" }), c("role", "enum", { ...R, values: ENROLLMENT_ROLES }),
  c("primary", "bool"), c("beginDate", "date"), c("endDate", "date"),
];
/** Japan Profile rev.2 … 1.2.1: ShussekiNo / PublicFlg — what the writer writes. */
export const ENROLLMENT_COLUMNS: Column[] = [
  ...ENROLLMENT_HEAD, c("metadata.jp.ShussekiNo", "int"), c("metadata.jp.PublicFlg", "bool"),
];
/** 1EdTech Japan K-12/Schools Profile (1.2_JP): lower-case initials. */
export const ENROLLMENT_COLUMNS_K12: Column[] = [
  ...ENROLLMENT_HEAD, c("metadata.jp.shussekiNo", "int"), c("metadata.jp.publicFlg", "bool"),
];

/** The header variants accepted per file the product reads; the first is the one written. */
export const FILE_COLUMNS = {
  academicSessions: [ACADEMIC_SESSION_COLUMNS],
  orgs: [ORG_COLUMNS],
  courses: [COURSE_COLUMNS],
  classes: [CLASS_COLUMNS],
  users: [USER_COLUMNS_27, USER_COLUMNS_29],
  roles: [ROLE_COLUMNS],
  enrollments: [ENROLLMENT_COLUMNS, ENROLLMENT_COLUMNS_K12],
} as const satisfies Partial<Record<RosterFile, readonly Column[][]>>;
export type ReadFile = keyof typeof FILE_COLUMNS;
/** In reading order: a file's references point to files read before it (orgs.parent and users.homeClass aside). */
export const READ_FILES: readonly ReadFile[] = ["academicSessions", "orgs", "courses", "classes", "users", "roles", "enrollments"];
