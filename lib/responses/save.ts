import "server-only";
import { db } from "@/lib/db";
import { countsChanged } from "@/lib/live/bus";
import { observeAnswerSave } from "@/lib/ops/metrics";
import type { SaveAnswerInput } from "./schema";
import { AnswerWriter, type SaveResult } from "./writer";

export type { SaveResult } from "./writer";

const globalForWriter = globalThis as unknown as { answerWriter?: AnswerWriter };

/** This process's batching writer over the app's Prisma client (lib/responses/writer.ts). */
function writer(): AnswerWriter {
  globalForWriter.answerWriter ??= new AnswerWriter((sql, params) => db().$queryRawUnsafe(sql, ...params), {
    onGuideSave: countsChanged,
  });
  return globalForWriter.answerWriter;
}

/**
 * Saves one answer of the user a session names (docs/product-design.md "Answers"),
 * batched with the saves arriving at the same time; every rule, who the user
 * is included, is checked against the database in lib/responses/writer.ts.
 */
export function saveAnswer(userId: string, input: SaveAnswerInput): Promise<SaveResult> {
  return observeAnswerSave(writer().save(userId, input));
}
