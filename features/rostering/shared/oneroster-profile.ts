/**
 * The Japan Profile's row rules beyond one field's kind (docs/oneroster.md "Strict Japan Profile checks"):
 * a 年度 session's title, enabledUser fixed true, a student's enrollment not primary, administrators
 * only as secondary roles, the shape of an org's identifier. Rows being deleted (delta tobedeleted) are
 * not checked. Pure.
 */
import type { RosterSet } from "./oneroster-model";
import type { ProblemList } from "./oneroster-problems";

type Sets = Pick<RosterSet, "academicSessions" | "orgs" | "users" | "roles" | "enrollments">;

/**
 * 学校コード: 13 characters, 学校種 (A–H then 1 or 2) and 11 digits (都道府県番号 2, 設置区分 1, 学校番号 7,
 * 検査数字 1). Only this shape is checked: the published Digital Agency sample carries the dummy
 * A123456789012 (設置区分 4), and the 検査数字's algorithm could not be verified (docs/adr/0067-strict-japan-profile-checks.md).
 */
export const SCHOOL_CODE = /^[A-H][12][0-9]{11}$/;
/** 教育委員会コード: 6 digits. */
export const DISTRICT_CODE = /^[0-4][0-9]{5}$/;
/** A school year's title: 「2026年度」. */
export const SCHOOL_YEAR_TITLE = /^(\d{4})年度$/;
/** Roles that may only be secondary (beside a primary `teacher`). */
const SECONDARY_ONLY = new Set(["principal", "siteAdministrator", "districtAdministrator"]);

export function checkProfile(set: Sets, problems: ProblemList): void {
  for (const s of set.academicSessions) {
    if (s.status === "tobedeleted" || s.type !== "schoolYear") continue;
    const m = SCHOOL_YEAR_TITLE.exec(s.title);
    if (!m || Number(m[1]) !== s.schoolYear)
      problems.add("sessionTitle", "academicSessions.csv", s.line, "title", {
        value: s.title,
        expected: `${s.schoolYear}年度`,
      });
  }
  for (const o of set.orgs) {
    if (o.status === "tobedeleted" || o.identifier === null) continue;
    const pattern = o.type === "school" ? SCHOOL_CODE : DISTRICT_CODE;
    if (!pattern.test(o.identifier))
      problems.add("orgIdentifier", "orgs.csv", o.line, "identifier", {
        value: o.identifier,
        type: o.type,
        expected: o.type === "school" ? "C113210000019" : "131000",
      });
  }
  for (const u of set.users) {
    if (u.status !== "tobedeleted" && u.enabledUser === false)
      problems.add("enabledUserFalse", "users.csv", u.line, "enabledUser", { value: "false" });
  }
  for (const r of set.roles) {
    if (r.status !== "tobedeleted" && r.roleType === "primary" && SECONDARY_ONLY.has(r.role))
      problems.add("adminPrimary", "roles.csv", r.line, "roleType", { value: r.role });
  }
  for (const e of set.enrollments) {
    if (e.status !== "tobedeleted" && e.role === "student" && e.primary === true)
      problems.add("studentPrimary", "enrollments.csv", e.line, "primary", { value: "true" });
  }
}
