/**
 * OneRoster 1.2 CSV (Japan Profile) as the importer reads it and the exporter writes it:
 * one plain object per CSV row, the fields the product uses, typed. Pure (no database).
 * docs/oneroster.md records the format rules and where each comes from.
 */
import type { ProfileName } from "./oneroster-columns";
import type { RosterFile } from "./oneroster-files";

export type FileMode = "bulk" | "delta" | "absent";

/** Bulk rows carry neither; delta rows carry both. */
export interface RowMeta {
  sourcedId: string;
  status: "active" | "tobedeleted" | null;
  dateLastModified: string | null;
  /** 1-based line of the row in its file (the header is line 1). */
  line: number;
}

export interface Manifest {
  /** `oneroster.version` as read: "1.2", "1.2.1" or "1.2_JP". */
  onerosterVersion: string;
  /** The Japan profile the set was read in (features/rostering/shared/oneroster-columns.ts ROSTER_PROFILES); the writer writes it unless told another. */
  profile?: ProfileName;
  files: Record<RosterFile, FileMode>;
  sourceSystemName: string | null;
  sourceSystemCode: string | null;
}

export interface AcademicSession extends RowMeta {
  title: string; // 「2026年度」
  type: string; // "schoolYear"
  startDate: string; // YYYY-MM-DD
  endDate: string;
  schoolYear: number; // start year of the 年度
}

export interface Org extends RowMeta {
  name: string;
  type: "school" | "district";
  identifier: string | null;
  parentSourcedId: string | null;
}

export interface Course extends RowMeta {
  schoolYearSourcedId: string | null;
  title: string;
  grades: string[];
  orgSourcedId: string;
  subjects: string[];
  subjectCodes: string[];
}

export interface RosterClass extends RowMeta {
  title: string; // 「1年1組」
  grades: string[]; // ["J1"]
  courseSourcedId: string;
  classCode: string | null;
  classType: "homeroom" | "scheduled";
  location: string | null;
  schoolSourcedId: string;
  termSourcedIds: string[];
  subjects: string[];
  subjectCodes: string[];
  specialNeeds: boolean | null;
}

export interface RosterUser extends RowMeta {
  enabledUser: boolean;
  username: string;
  userIds: string[];
  givenName: string;
  familyName: string;
  middleName: string | null;
  identifier: string | null;
  email: string | null;
  grades: string[];
  userMasterIdentifier: string | null;
  preferredGivenName: string | null;
  preferredFamilyName: string | null;
  preferredMiddleName: string | null;
  primaryOrgSourcedId: string | null;
  /** Katakana or hiragana as read; the exporter writes full-width katakana. */
  kanaGivenName: string | null;
  kanaFamilyName: string | null;
  kanaMiddleName: string | null;
  /** sourcedId of the user's homeroom class. */
  homeClass: string | null;
}

export type RoleName =
  | "student"
  | "teacher"
  | "guardian"
  | "principal"
  | "siteAdministrator"
  | "districtAdministrator"
  | "aide"
  | "counselor"
  | "parent"
  | "proctor"
  | "relative"
  | "systemAdministrator";

export interface RosterRole extends RowMeta {
  userSourcedId: string;
  roleType: "primary" | "secondary";
  role: RoleName;
  orgSourcedId: string;
  beginDate: string | null;
  endDate: string | null;
}

export interface Enrollment extends RowMeta {
  classSourcedId: string;
  schoolSourcedId: string;
  userSourcedId: string;
  role: "student" | "teacher" | "administrator" | "proctor" | "guardian";
  primary: boolean | null;
  beginDate: string | null;
  endDate: string | null;
  /** 出席番号 (metadata.jp.ShussekiNo / shussekiNo). */
  shussekiNo: number | null;
  publicFlg: boolean | null;
}

/** One parsed set. Files the manifest marks absent are empty arrays. */
export interface RosterSet {
  manifest: Manifest;
  academicSessions: AcademicSession[];
  orgs: Org[];
  courses: Course[];
  classes: RosterClass[];
  users: RosterUser[];
  roles: RosterRole[];
  enrollments: Enrollment[];
  /** The 出席番号 column as enrollments.csv spells it, when not `metadata.jp.ShussekiNo` (the K-12 Profile's `…shussekiNo`). */
  shussekiColumn?: string;
}

/**
 * One thing wrong with a set. `line` 0 and `column` "" mean the whole file (or the package
 * when `file` is ""). `code` is one of ROSTER_PROBLEM_CODES (features/rostering/shared/oneroster-problems.ts), which
 * the page translates; `message` is the Japanese text the command line prints.
 */
export interface Problem {
  file: string;
  line: number;
  column: string;
  code: string;
  /** The ICU parameters of `RosterProblems.<code>` (file, line, column, value, ...), for translated messages. */
  params?: Record<string, string | number>;
  message: string;
}
