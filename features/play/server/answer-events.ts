import { foregroundBusy } from "@/platform/ops/foreground";
import { publishGathered } from "@/platform/queue/commands";
import type { WrittenAnswer } from "./answer-writer";

/**
 * The answers save statements wrote, published to the job queue (platform/queue/commands.ts) for whoever subscribes
 * (the learning records: features/lti/server/xapi-queue.ts, and the scores). Gathered: the answers of every statement
 * of GATHER_MS go as one job (one insert, not one per statement or per answer), never waited for: the saves are
 * answered before it is sent (features/play/README.md "Learning records"). Each also tells the server's idle children
 * that saves are being made (platform/ops/foreground.ts): their database work waits for the burst to end.
 */
export const ANSWERS_WRITTEN = "answers.written";

export interface AnswersWritten {
  answers: WrittenAnswer[];
}

export function publishWritten(answers: WrittenAnswer[]): void {
  foregroundBusy();
  publishGathered(ANSWERS_WRITTEN, "answers" satisfies keyof AnswersWritten, answers);
}
