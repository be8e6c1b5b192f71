import type { Role } from "@/platform/auth/roles";

/** The message key of the role suffix (teacher 先生, manager 管理者), or null for students. */
export function roleSuffixKey(role: Role): "teacherSuffix" | "managerSuffix" | null {
  if (role === "teacher") return "teacherSuffix";
  if (role === "manager") return "managerSuffix";
  return null;
}
