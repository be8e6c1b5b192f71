import type { ClassMove } from "./schema";

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

/** Grades are years of one school: the school's top grade is the highest grade it has now (the manager confirms it). */
export function inferTopGrade(classes: ClassNow[]): number {
  return classes.reduce((top, c) => Math.max(top, c.grade), 1);
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
      for (const n of c.numbers) if (n !== null) seats.set(`${to.grade}-${to.className}-${n}`, (seats.get(`${to.grade}-${to.className}-${n}`) ?? 0) + 1);
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
