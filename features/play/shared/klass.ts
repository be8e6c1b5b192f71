/**
 * The class (組) a live session is run for, as one comparable key (features/people/shared/class-key.ts):
 * null for the whole school (and for a student whose grade or class is not set).
 */
export { classKeyOf } from "@/features/people/shared/class-key";

/** Whether a session run for `sessionClass` is open to a student of `studentClass` (docs/adr/0060-live-sessions-for-one-class.md). */
export function sessionOpenTo(sessionClass: string | null, studentClass: string | null): boolean {
  return sessionClass === null || sessionClass === studentClass;
}

/** The SQL condition "session gs is open to the student whose details are d" (both aliases given by the caller). */
export const SESSION_OPEN_SQL = (gs: string, d: string) =>
  `(${gs}.class_name is null or (${gs}.grade = ${d}.grade and ${gs}.class_name = ${d}.class_name))`;
