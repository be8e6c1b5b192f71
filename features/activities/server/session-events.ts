import { publishLater } from "@/platform/queue/commands";

/**
 * A live session the teacher ended (features/play's end of the lesson, or the activity taken out of live mode or
 * archived here), published to the job queue (platform/queue/commands.ts) for whoever subscribes (the portal's
 * scores: features/lti/server/score-queue.ts) once the end is committed, never waited for.
 */
export const SESSION_ENDED = "sessions.ended";

export interface SessionEnded {
  sessionId: string;
  activityId: string;
  /** ISO. */
  endedAt: string;
}

export function publishEnded(ended: SessionEnded): void {
  publishLater(SESSION_ENDED, ended);
}
