/**
 * The files of a OneRoster 1.2 CSV set (docs/oneroster.md): named by the columns (a reference's target) and by the
 * model (a manifest's files), so below both.
 */

/** The 21 files a manifest names, in the manifest's order. */
export const ROSTER_FILES = [
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
] as const;
export type RosterFile = (typeof ROSTER_FILES)[number];
