/**
 * The columns of each file the product reads and writes, in order, per published Japan profile
 * (ROSTER_PROFILES below). docs/oneroster.md gives the sources.
 */
import type { RosterFile } from "./oneroster-files";

export type Kind =
  | "id"
  | "ref"
  | "refs"
  | "text"
  | "name"
  | "enum"
  | "date"
  | "dateTime"
  | "bool"
  | "grades"
  | "subjectCodes"
  | "int"
  | "list"
  | "status"
  | "ignored";

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
  "student",
  "teacher",
  "guardian",
  "principal",
  "siteAdministrator",
  "districtAdministrator",
  "aide",
  "counselor",
  "parent",
  "proctor",
  "relative",
  "systemAdministrator",
] as const;
export const ENROLLMENT_ROLES = ["student", "teacher", "administrator", "proctor", "guardian"] as const;

export const ACADEMIC_SESSION_COLUMNS: Column[] = [
  ...meta,
  c("title", "name", R),
  c("type", "enum", { ...R, values: SESSION_TYPES }),
  c("startDate", "date", R),
  c("endDate", "date", R),
  c("parentSourcedId", "ignored"),
  c("schoolYear", "int", R),
];
export const ORG_COLUMNS: Column[] = [
  ...meta,
  c("name", "name", R),
  c("type", "enum", { ...R, values: ORG_TYPES }),
  c("identifier", "text"),
  c("parentSourcedId", "ref", { target: "orgs" }),
];
export const COURSE_COLUMNS: Column[] = [
  ...meta,
  c("schoolYearSourcedId", "ref", { target: "academicSessions" }),
  c("title", "name", R),
  c("courseCode", "text", { mustBeEmpty: true }),
  c("grades", "grades"),
  c("orgSourcedId", "ref", { ...R, target: "orgs" }),
  c("subjects", "list"),
  c("subjectCodes", "subjectCodes"),
];
export const CLASS_COLUMNS: Column[] = [
  ...meta,
  c("title", "name", R),
  c("grades", "grades"),
  c("courseSourcedId", "ref", { ...R, target: "courses" }),
  c("classCode", "text"),
  c("classType", "enum", { ...R, values: CLASS_TYPES }),
  c("location", "name"),
  c("schoolSourcedId", "ref", { ...R, target: "orgs" }),
  c("termSourcedIds", "refs", { ...R, target: "academicSessions" }),
  c("subjects", "list"),
  c("subjectCodes", "subjectCodes"),
  c("periods", "list"),
  c("metadata.jp.specialNeeds", "bool"),
];
const USER_HEAD: Column[] = [
  ...meta,
  c("enabledUser", "bool", R),
  c("username", "text", R),
  c("userIds", "list"),
  c("givenName", "name", R),
  c("familyName", "name", R),
  c("middleName", "name"),
  c("identifier", "text"),
  c("email", "text"),
  c("sms", "ignored"),
  c("phone", "ignored"),
  c("agentSourcedIds", "ignored"),
  c("grades", "grades"),
  c("password", "ignored"),
  c("userMasterIdentifier", "text"),
];
const USER_PREFERRED: Column[] = [
  c("preferredGivenName", "name"),
  c("preferredMiddleName", "name"),
  c("preferredFamilyName", "name"),
  c("primaryOrgSourcedId", "ref", { target: "orgs" }),
  c("pronouns", "ignored"),
  c("metadata.jp.kanaGivenName", "name"),
  c("metadata.jp.kanaFamilyName", "name"),
  c("metadata.jp.kanaMiddleName", "name"),
  c("metadata.jp.homeClass", "ref", { target: "classes" }),
];
/** Japan Profile rev.2 / eポータル v3 (OneRoster 1.2): 27 columns. */
export const USER_COLUMNS_27: Column[] = [...USER_HEAD, c("resourceSourcedIds", "ignored"), ...USER_PREFERRED];
/** Japan Profile 1.2.1 / eポータル v4 / K-12 (OneRoster 1.2.1): no resourceSourcedIds, three kanaPreferred* at the end. */
export const USER_COLUMNS_29: Column[] = [
  ...USER_HEAD,
  ...USER_PREFERRED,
  c("metadata.jp.kanaPreferredFamilyName", "name"),
  c("metadata.jp.kanaPreferredGivenName", "name"),
  c("metadata.jp.kanaPreferredMiddleName", "name"),
];
export const ROLE_COLUMNS: Column[] = [
  ...meta,
  c("userSourcedId", "ref", { ...R, target: "users" }),
  c("roleType", "enum", { ...R, values: ROLE_TYPES }),
  c("role", "enum", { ...R, values: ROLES }),
  c("beginDate", "date"),
  c("endDate", "date"),
  c("orgSourcedId", "ref", { ...R, target: "orgs" }),
  c("userProfileSourcedId", "ignored"),
];
const ENROLLMENT_HEAD: Column[] = [
  ...meta,
  c("classSourcedId", "ref", { ...R, target: "classes" }),
  c("schoolSourcedId", "ref", { ...R, target: "orgs" }),
  c("userSourcedId", "ref", { ...R, target: "users" }),
  c("role", "enum", { ...R, values: ENROLLMENT_ROLES }),
  c("primary", "bool"),
  c("beginDate", "date"),
  c("endDate", "date"),
];
/** Japan Profile rev.2 … 1.2.1: ShussekiNo / PublicFlg. */
export const ENROLLMENT_COLUMNS: Column[] = [
  ...ENROLLMENT_HEAD,
  c("metadata.jp.ShussekiNo", "int"),
  c("metadata.jp.PublicFlg", "bool"),
];
/** 1EdTech Japan K-12/Schools Profile (1.2_JP): lower-case initials. */
export const ENROLLMENT_COLUMNS_K12: Column[] = [
  ...ENROLLMENT_HEAD,
  c("metadata.jp.shussekiNo", "int"),
  c("metadata.jp.publicFlg", "bool"),
];

/** The files the product reads and writes. */
export type ReadFile = "academicSessions" | "orgs" | "courses" | "classes" | "users" | "roles" | "enrollments";
/** In reading order: a file's references point to files read before it (orgs.parent and users.homeClass aside). */
export const READ_FILES: readonly ReadFile[] = [
  "academicSessions",
  "orgs",
  "courses",
  "classes",
  "users",
  "roles",
  "enrollments",
];

/**
 * The published Japan profiles a receiver is configured for, named by the `oneroster.version` their
 * manifest carries ([M] `profiles.rb`): "1.2" Japan Profile rev.2 / 学習eポータル標準モデル v3 (users
 * 27 columns); "1.2.1" Japan Profile v1.2.1 / eポータル v4 (users 29 columns, kanaPreferred*); "1.2_JP"
 * 1EdTech Japan K-12/Schools Profile (29 columns, lower-case `shussekiNo`/`publicFlg`). One definition
 * serves both the reader (the header variants it accepts) and the writer (what it writes).
 */
export interface RosterProfile {
  onerosterVersion: string;
  columns: Record<ReadFile, Column[]>;
}
const SAME: Omit<Record<ReadFile, Column[]>, "users" | "enrollments"> = {
  academicSessions: ACADEMIC_SESSION_COLUMNS,
  orgs: ORG_COLUMNS,
  courses: COURSE_COLUMNS,
  classes: CLASS_COLUMNS,
  roles: ROLE_COLUMNS,
};
export const ROSTER_PROFILES = {
  "1.2": { onerosterVersion: "1.2", columns: { ...SAME, users: USER_COLUMNS_27, enrollments: ENROLLMENT_COLUMNS } },
  "1.2.1": { onerosterVersion: "1.2.1", columns: { ...SAME, users: USER_COLUMNS_29, enrollments: ENROLLMENT_COLUMNS } },
  "1.2_JP": {
    onerosterVersion: "1.2_JP",
    columns: { ...SAME, users: USER_COLUMNS_29, enrollments: ENROLLMENT_COLUMNS_K12 },
  },
} as const satisfies Record<string, RosterProfile>;
export type ProfileName = keyof typeof ROSTER_PROFILES;
export const PROFILE_NAMES = Object.keys(ROSTER_PROFILES) as ProfileName[];
/** What the writer writes when nothing says otherwise. */
export const DEFAULT_PROFILE: ProfileName = "1.2";
export const isProfileName = (name: unknown): name is ProfileName =>
  typeof name === "string" && Object.hasOwn(ROSTER_PROFILES, name);

/**
 * The profile of a set as read: the one whose header variants the files carry (users, enrollments),
 * then the one its manifest's version names (a delta may carry neither file).
 */
export function profileOf(onerosterVersion: string, read: Partial<Record<ReadFile, Column[]>>): ProfileName {
  const fits = PROFILE_NAMES.filter((name) =>
    (Object.keys(read) as ReadFile[]).every((file) => read[file] === ROSTER_PROFILES[name].columns[file]),
  );
  const byVersion =
    PROFILE_NAMES.find((name) => ROSTER_PROFILES[name].onerosterVersion === onerosterVersion) ?? DEFAULT_PROFILE;
  return fits.includes(byVersion) || fits.length === 0 ? byVersion : fits[0]!;
}

/** The header variants accepted per file, from the profiles; the first (profile 1.2's) is the one written by default. */
export const FILE_COLUMNS = Object.fromEntries(
  READ_FILES.map((file) => [file, [...new Set(PROFILE_NAMES.map((p) => ROSTER_PROFILES[p].columns[file]))]]),
) as unknown as Record<ReadFile, readonly [Column[], ...Column[][]]>;
