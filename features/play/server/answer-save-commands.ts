import "server-only";
import { db } from "@/platform/db";
import { countsChanged } from "@/platform/notify/bus";
import { observeAnswerSave } from "@/platform/ops/metrics";
import type { SaveAnswerInput } from "../shared/answer-schema";
import { publishWritten } from "./answer-events";
import { AnswerWriter, type SaveResult } from "./answer-writer";

export type { SaveResult } from "./answer-writer";

const globalForWriter = globalThis as unknown as { answerWriter?: AnswerWriter };

/** This process's batching writer over the app's Prisma client (features/play/server/answer-writer.ts). */
function writer(): AnswerWriter {
  globalForWriter.answerWriter ??= new AnswerWriter((sql, params) => db().$queryRawUnsafe(sql, ...params), {
    onGuideSave: countsChanged,
    onWritten: publishWritten,
  });
  return globalForWriter.answerWriter;
}

/**
 * Saves one answer of the user a session names (docs/product-design.md "Answers"),
 * batched with the saves arriving at the same time; every rule, who the user
 * is included, is checked against the database in features/play/server/answer-writer.ts.
 */
export function saveAnswer(userId: string, input: SaveAnswerInput): Promise<SaveResult> {
  return observeAnswerSave(writer().save(userId, input));
}
