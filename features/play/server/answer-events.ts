import { publishLater } from "@/platform/queue/commands";
import type { WrittenAnswer } from "./answer-writer";

/**
 * The answers a save statement wrote, published to the job queue (platform/queue/commands.ts) for whoever subscribes
 * (the learning records: features/lti/server/xapi-queue.ts). One insert per statement, not per answer, and never
 * waited for: the saves are answered before it is sent (features/play/README.md "Learning records").
 */
export const ANSWERS_WRITTEN = "answers.written";

export interface AnswersWritten {
  answers: WrittenAnswer[];
}

export function publishWritten(answers: WrittenAnswer[]): void {
  publishLater(ANSWERS_WRITTEN, { answers } satisfies AnswersWritten);
}
