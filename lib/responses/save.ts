import "server-only";
import { db } from "@/lib/db";
import { countsChanged } from "@/lib/live/bus";
import type { SaveAnswerInput } from "./schema";
import { AnswerWriter, type SaveResult } from "./writer";

export type { SaveResult } from "./writer";

export interface Respondent {
  id: string;
  role: "student" | "teacher" | "manager";
  schoolId: string | null;
}

const globalForWriter = globalThis as unknown as { answerWriter?: AnswerWriter };

/** This process's batching writer over the app's Prisma client (lib/responses/writer.ts). */
function writer(): AnswerWriter {
  globalForWriter.answerWriter ??= new AnswerWriter((sql, params) => db().$queryRawUnsafe(sql, ...params), { onGuideSave: countsChanged });
  return globalForWriter.answerWriter;
}

/**
 * Saves one answer (DESIGN.md "Answers"), batched with the saves arriving at
 * the same time; every rule is checked per save in lib/responses/writer.ts,
 * against the database (the respondent included), not against `who`'s fields.
 */
export function saveAnswer(who: Respondent, input: SaveAnswerInput): Promise<SaveResult> {
  return saveAnswerOf(who.id, input);
}

/** The same, for the user id a session names (checked against the database with the save). */
export function saveAnswerOf(userId: string, input: SaveAnswerInput): Promise<SaveResult> {
  return writer().save(userId, input);
}
