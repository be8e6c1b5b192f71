/** Why a save is refused, as the client shows it ('failed to save answer' with the reason). No zod here: the student's page imports it. */
export const SAVE_REFUSALS = [
  "requiredInput",
  "invalidCharacters",
  "tooLong",
  "invalidAnswer",
  "notSelfMode",
  "sessionNotRunning",
  "notCurrentScene",
  "locked",
  "notOpenYet",
  "activityNotFound",
  "answerFinal",
  "timeUp",
] as const;
export type SaveRefusal = (typeof SAVE_REFUSALS)[number];
