import type { ClassMove } from "./rollover-schema";

/** A class of the school now: its grade, its 組, its students' attendance numbers (null: not set). */
export interface ClassNow {
  grade: number;
  className: string;
  numbers: (number | null)[];
}

export interface ClassStep {
  grade: number;
  className: string;
  count: number;
  /** Null: the class graduates. */
  to: { grade: number; className: string } | null;
}

export interface RolloverPlan {
  steps: ClassStep[];
  promoted: number;
  graduates: number;
  /** Students whose 組 changes: their sign-in cards are reissued. */
  reissued: number;
  /** Seats two students would hold next year ("2-1-5"): the rollover is refused until the mapping changes. */
  clashes: string[];
}

/** Grades are years of one school: the highest grade it has now (the last resort of `defaultTopGrade`). */
export function inferTopGrade(classes: ClassNow[]): number {
  return classes.reduce((top, c) => Math.max(top, c.grade), 1);
}

/** The kinds of school by how their names end, longest first (中等教育学校 also ends in 学校, not in 中学校). */
const KINDS: [RegExp, number][] = [
  [/義務教育学校/, 9],
  [/中等教育学校/, 6],
  [/小学校/, 6],
  [/中学校/, 3],
  [/(高等学校|高校)/, 3],
];

/** The top grade a school's kind has (小学校 6, 中学校 and 高校 3, 義務教育学校 9, 中等教育学校 6), from its name; null when the name says none. */
export function topGradeOfName(name: string): number | null {
  const normalized = name.normalize("NFKC");
  return KINDS.find(([kind]) => kind.test(normalized))?.[1] ?? null;
}

/** The top grade its homerooms' OneRoster grade codes say (P1–P6: 小学校 6; J1–J3, H1–H3: 3); null when they say none. */
export function topGradeOfCodes(codes: string[]): number | null {
  if (codes.some((c) => /^P[1-6]$/.test(c))) return 6;
  if (codes.some((c) => /^[JH][1-3]$/.test(c))) return 3;
  return null;
}

/**
 * The top grade the rollover page starts with: the school's kind (its name, else its homerooms'
 * grade codes), and only when neither says it, the highest grade it has now. A 中学校 whose students
 * are all in 1年 starts at 3年, never at 1年 (which would graduate all of them).
 */
export function defaultTopGrade(school: { name: string; gradeCodes: string[] }, classes: ClassNow[]): number {
  return topGradeOfName(school.name) ?? topGradeOfCodes(school.gradeCodes) ?? inferTopGrade(classes);
}

/** What the manager typed to confirm a rollover that graduates students is the school's name (width and spaces aside). */
export function confirmsSchoolName(typed: string, name: string): boolean {
  const norm = (s: string) => s.normalize("NFKC").replace(/\s+/g, "");
  return norm(typed) !== "" && norm(typed) === norm(name);
}

/**
 * Next year's classes (pure; the preview and the write run the same plan): every grade below the top
 * moves up one, keeping its 組 unless a move names another; the top grade (and any above it) graduates.
 * Attendance numbers are kept, so two classes merged into one 組 may clash on a seat.
 */
export function planRollover(classes: ClassNow[], topGrade: number, moves: ClassMove[]): RolloverPlan {
  const target = new Map(moves.map((m) => [`${m.grade}\u0000${m.className}`, m.to]));
  const seats = new Map<string, number>();
  const steps = [...classes]
    .sort((a, b) => a.grade - b.grade || a.className.localeCompare(b.className, "ja"))
    .map((c): ClassStep => {
      if (c.grade >= topGrade) return { grade: c.grade, className: c.className, count: c.numbers.length, to: null };
      const to = { grade: c.grade + 1, className: target.get(`${c.grade}\u0000${c.className}`) ?? c.className };
      for (const n of c.numbers)
        if (n !== null)
          seats.set(`${to.grade}-${to.className}-${n}`, (seats.get(`${to.grade}-${to.className}-${n}`) ?? 0) + 1);
      return { grade: c.grade, className: c.className, count: c.numbers.length, to };
    });
  const sum = (pick: (s: ClassStep) => boolean) => steps.filter(pick).reduce((n, s) => n + s.count, 0);
  return {
    steps,
    promoted: sum((s) => s.to !== null),
    graduates: sum((s) => s.to === null),
    reissued: sum((s) => s.to !== null && s.to.className !== s.className),
    clashes: [...seats].filter(([, n]) => n > 1).map(([seat]) => seat),
  };
}

/** The academic year (年度) of a moment: April to March, Japan time (the database's academic_year_of). */
export function academicYearOf(at: Date): number {
  const tokyo = new Date(at.getTime() + 9 * 3600_000);
  return tokyo.getUTCMonth() < 3 ? tokyo.getUTCFullYear() - 1 : tokyo.getUTCFullYear();
}

/** How far a school may roll: at most into the year after the calendar's (a rollover prepared in February or March). */
export function mayRollInto(nextYear: number, now: Date): boolean {
  return nextYear <= academicYearOf(now) + 1;
}
