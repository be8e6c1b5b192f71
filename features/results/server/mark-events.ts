import { publishLater } from "@/platform/queue/commands";

/**
 * A teacher's mark saved, changed or removed, published to the job queue (platform/queue/commands.ts) for whoever
 * subscribes (the portal's scores: features/lti/server/score-queue.ts) once the mark is committed, never waited for.
 * `markedAt`: the mark's time (its removal's, for a removed one), ISO.
 */
export const MARKS_WRITTEN = "marks.written";

export interface MarkWritten {
  activityId: string;
  userId: string;
  markedAt: string;
}

export function publishMark(mark: MarkWritten): void {
  publishLater(MARKS_WRITTEN, mark);
}
