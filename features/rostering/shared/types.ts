/** The plain objects of an import plan (features/rostering/server/plan.ts) as the page and the command line show them. */
import type { Problem } from "@/features/rostering/shared/oneroster-model";

export type Counts = {
  create: number;
  update: number;
  move: number;
  disable: number;
  /** Accounts added by hand (no sourcedId yet) that the set's person takes over: same id, answers kept. */
  link: number;
};

export type Action = keyof Counts;

/** One row of the preview: who or what changes, and how (年・組・番号 after the change). */
export interface PreviewRow {
  action: Action;
  sourcedId: string;
  name: string;
  nameKana: string | null;
  grade: number | null;
  className: string | null;
  number: number | null;
}

/** How many rows of each kind a plan's preview lists per school (its `total` and the counts are always whole). */
export const PREVIEW_ROWS = 200;

/** The first PREVIEW_ROWS rows of one kind of a school's preview, and how many there are in all. */
export interface PreviewList {
  rows: PreviewRow[];
  total: number;
}

export interface SchoolSummary {
  sourcedId: string;
  name: string;
  /** The set creates this school (no school of the academy has its sourcedId or, without one, its name). */
  newSchool: boolean;
  students: Counts;
  teachers: Counts;
  classes: Counts;
  /** Who and what changes, listed up to PREVIEW_ROWS per kind: a set of 100,000 people answers with a page's worth, not all of them. */
  preview: { students: PreviewList; teachers: PreviewList; classes: PreviewList };
}

export interface RosterPlan {
  schools: SchoolSummary[];
  problems: Problem[];
  /** What is applied but worth a look (a student without 出席番号); never stops the apply. */
  warnings?: Problem[];
}

export interface ApplyProgress {
  school: string;
  done: number;
  total: number;
  /** That school and what was applied to it. */
  summary: Pick<SchoolSummary, "sourcedId" | "name" | "newSchool" | "students" | "teachers" | "classes">;
}

/** The person a set describes, as the product will store them. */
export interface UserTarget {
  sourcedId: string;
  role: "student" | "teacher";
  email: string | null;
  name: string;
  nameKana: string | null;
  familyName: string;
  givenName: string;
  kanaFamilyName: string | null;
  kanaGivenName: string | null;
  userMasterIdentifier: string | null;
  grade: number | null;
  className: string | null;
  number: number | null;
}

/** A homeroom's fields as roster_classes stores them. */
export interface ClassFields {
  sourcedId: string;
  title: string;
  gradeCode: string | null;
  grade: number | null;
  className: string;
  classCode: string | null;
  courseSourcedId: string | null;
  termSourcedId: string | null;
}

export interface ClassTarget extends ClassFields {
  /** sourcedId of the 担任, or null. */
  teacherSourcedId: string | null;
}

/** What applying does to one school (the school may not exist yet: `schoolId` null). */
export interface SchoolWork {
  sourcedId: string;
  name: string;
  schoolId: string | null;
  /** The school's row changes (name or sourcedId). */
  schoolChanged: boolean;
  create: UserTarget[];
  update: { id: string; target: UserTarget }[];
  move: { id: string; target: UserTarget }[];
  /** Hand-added accounts of this school matched by e-mail: they get the sourcedId, seat and name (docs/adr/0066-linking-hand-added-accounts.md). */
  link: { id: string; target: UserTarget }[];
  disable: { id: string; role: "student" | "teacher"; sourcedId: string; name: string }[];
  /** Students leaving this school for another of the academy: their seat here is freed first. */
  leaving: string[];
  classCreate: ClassTarget[];
  classUpdate: { id: string; target: ClassTarget }[];
  classDelete: string[];
}
