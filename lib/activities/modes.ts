/** An activity's modes (no zod here: client components import these). */
export const ACTIVITY_MODES = ["standby", "guide", "self", "complete"] as const;
export type ActivityMode = (typeof ACTIVITY_MODES)[number];
