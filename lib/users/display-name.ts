import type { Role } from "@/lib/auth/roles";

/** SPEC.md §2: nickname, otherwise name, otherwise null (the caller shows 'guest'). */
export function baseDisplayName(user: { nickname?: string | null; name?: string | null }): string | null {
  const nickname = user.nickname?.trim();
  if (nickname) return nickname;
  const name = user.name?.trim();
  return name || null;
}

/** The message key of the role suffix (teacher 先生, manager 管理者), or null for students. */
export function roleSuffixKey(role: Role): "teacherSuffix" | "managerSuffix" | null {
  if (role === "teacher") return "teacherSuffix";
  if (role === "manager") return "managerSuffix";
  return null;
}
