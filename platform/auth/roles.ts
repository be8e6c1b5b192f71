export const ROLES = ["student", "teacher", "manager"] as const;
export type Role = (typeof ROLES)[number];
/** Teachers and managers: the school's staff. */
export const STAFF_ROLES = ["teacher", "manager"] as const satisfies readonly Role[];

/** Teachers and managers are signed out after this long without a request (docs/adr/0034-sessions-end-when-they-should.md; platform/auth/session.ts). */
export const STAFF_IDLE_MINUTES = 120;

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function homeOf(role: Role): string {
  return `/dashboard/${role}/home`;
}

/** The role whose area a path belongs to, if any. */
export function areaOf(pathname: string): Role | null {
  const m = /^\/dashboard\/(student|teacher|manager)(\/|$)/.exec(pathname);
  return m ? (m[1] as Role) : null;
}
