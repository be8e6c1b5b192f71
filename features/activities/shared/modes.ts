/** An activity's modes (no zod here: client components import these). */
export const ACTIVITY_MODES = ["standby", "guide", "self", "complete"] as const;
export type ActivityMode = (typeof ACTIVITY_MODES)[number];

/** Each mode's label key in the Activities catalogue namespace (server and client alike). */
export const MODE_KEY = {
  standby: "modeStandby",
  guide: "modeGuide",
  self: "modeSelf",
  complete: "modeComplete",
} as const;

/** When students see whether their answers were correct (no zod here either: the editor's select imports these). */
export const FEEDBACK_TIMINGS = ["never", "after_answer", "at_end"] as const;
export type FeedbackTiming = (typeof FEEDBACK_TIMINGS)[number];
