import { Prisma } from "@/platform/db/generated/prisma/client";

/**
 * The one rule for "the seat a student had in year Y" (docs/adr/0072-each-years-seat-is-kept.md): the seat
 * the year-end rollover recorded for Y (student_year_seats) when there is one, else the student's
 * current seat (student_details). As SQL: joins ending in `cross join lateral (…) <alias>`, giving
 * `<alias>.grade`, `<alias>.class_name`, `<alias>.number` (Y's seat) and `<alias>.counterbalance_group`
 * (the student's), for the user whose id is `userColumn`.
 *
 * `userColumn` and `yearSql` are SQL written by the caller (a column such as `u.id`, an expression
 * such as `a.academic_year` or `$3::int`), never user input: a year given as a number is checked.
 */
export function seatInYearSql(userColumn: string, year: number | string, alias = "sd"): string {
  if (typeof year === "number" && !Number.isSafeInteger(year)) throw new Error("year must be an integer");
  const y = typeof year === "number" ? `${year}::int` : year;
  const pick = (column: string) =>
    `case when ${alias}_y.user_id is null then ${alias}_d.${column} else ${alias}_y.${column} end as ${column}`;
  // two plain outer joins and a FROM-less lateral the planner flattens: hash joins over a whole activity's answers
  return `left join student_details ${alias}_d on ${alias}_d.user_id = ${userColumn}
    left join student_year_seats ${alias}_y on ${alias}_y.user_id = ${userColumn} and ${alias}_y.academic_year = ${y}
    cross join lateral (select ${alias}_d.counterbalance_group, ${pick("grade")}, ${pick("class_name")}, ${pick("number")}) ${alias}`;
}

/** The same join for a `Prisma.sql` / `$queryRaw` template. */
export function seatInYearJoin(userColumn: string, year: number | string, alias = "sd"): Prisma.Sql {
  return Prisma.raw(seatInYearSql(userColumn, year, alias));
}
