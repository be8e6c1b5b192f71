import type { ActivityMode } from "./schema";

/** Who may edit an activity (its order, scenes, feedback): staff, each within their scope (teachers their school, managers their academy's schools). */
export function canEditActivity(role: "student" | "teacher" | "manager"): boolean {
  return role === "teacher" || role === "manager";
}

/** Lifecycle (docs/product-design.md): only an archived activity can be deleted for good. */
export function canDelete(status: "active" | "archived"): boolean {
  return status === "archived";
}

/** Leaving guide mode ends the live session. */
export function endsGuideSession(from: ActivityMode, to: ActivityMode): boolean {
  return from === "guide" && to !== "guide";
}

/** A new order must be a permutation of the activity's scenes. */
export function isPermutation(order: string[], sceneIds: string[]): boolean {
  if (order.length !== sceneIds.length) return false;
  const want = new Set(sceneIds);
  return new Set(order).size === order.length && order.every((id) => want.has(id));
}
