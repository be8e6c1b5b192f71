/**
 * A class (組) as one comparable key, "grade:className" (e.g. "1:2" for 1年2組): the value of every
 * class picker and filter (the students page, the statistics, a live session). Framework-free.
 */
export interface SchoolClass {
  grade: number;
  className: string;
}

/** The key of a class, or null for none (a student whose grade or class is not set). */
export function classKeyOf(grade: number | null | undefined, className: string | null | undefined): string | null {
  return grade !== null && grade !== undefined && className ? `${grade}:${className}` : null;
}

/** The class a key names; null when `key` is not one ("1", "x:2", ":3"). */
export function parseClassKey(key: string): SchoolClass | null {
  const match = /^(\d{1,2}):(.+)$/su.exec(key);
  return match ? { grade: Number(match[1]), className: match[2]! } : null;
}

/** The Prisma condition on a student's details for a class filter: a key that names no class matches nobody. */
export function classFilterOf(key: string): SchoolClass {
  return parseClassKey(key) ?? { grade: -1, className: "" };
}

/** Classes in school order: by grade, then 1組, 2組, … 10組 (not 1, 10, 2). */
export function sortClasses<T extends SchoolClass>(classes: T[]): T[] {
  const collator = new Intl.Collator("ja", { numeric: true });
  return [...classes].sort((a, b) => a.grade - b.grade || collator.compare(a.className, b.className));
}

/** The SQL expression of the class key of the seat (student details) under `alias`: the filters compare it with a key. */
export const classKeySql = (alias: string) => `(${alias}.grade::text || ':' || ${alias}.class_name)`;
