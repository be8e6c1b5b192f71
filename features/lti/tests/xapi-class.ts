import { db } from "@/platform/db";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { statementJson } from "@/features/lti/server/xapi-body";
import { type StatementToStore, storeStatements } from "@/features/lti/server/xapi-record-commands";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

/**
 * For the learning records' tests: an academy (no LRS yet), a class of `size` students with OneRoster sourcedIds,
 * and a self-paced activity of one single-choice scene whose key is "clear"; in the test database or `client`'s.
 */
export async function classWithKeyedScene(size: number, client: PrismaClient = db()) {
  await syncTemplates(client, await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(client, { name: `R${tag}`, nameKana: "あーる" });
  const school = (await createSchool(client, { academyId: academy.id, name: `R${tag}`, nameKana: "あーる" })).id;
  const students: string[] = [];
  for (let n = 0; n < size; n++) {
    const student = await createUser(client, {
      role: "student",
      email: `r-${tag}-${n}@t.example`,
      schoolId: school,
      name: `記録 ${n}`,
      student: { grade: 1, className: "1", number: n + 1 },
    });
    await client.user.update({ where: { id: student.id }, data: { sourcedId: `r-${tag}-${n}` } });
    students.push(student.id);
  }
  const activity = (
    await createActivityFromTemplate(client, { templateId: "science-dissolve", schoolId: school, mode: "self" })
  ).id;
  const scenes = await client.activityScene.findMany({ where: { activityId: activity } });
  const choice = scenes.find((s) => s.type === "single_choice")!;
  const scene = choice.id;
  await client.activityScene.deleteMany({ where: { activityId: activity, id: { not: scene } } });
  const content = choice.content as { options: { id: string; correct?: boolean }[] };
  const options = content.options.map((o) => ({ ...o, correct: o.id === "clear" }));
  await client.activityScene.update({ where: { id: scene }, data: { content: { ...content, options } } });
  return { academyId: academy.id, students, activity, scene };
}

/** Stores `rows` as the record worker stores statements (waiting for the LRS), each made now unless it says when. */
export async function storeStatementRows(rows: (Omit<StatementToStore, "createdAt"> & { createdAt?: Date })[]) {
  await storeStatements(rows.map((r) => ({ ...r, createdAt: r.createdAt ?? new Date() })));
}

export interface StoredStatement {
  id: string;
  userId: string;
  verb: string;
  createdAt: Date;
  state: "waiting" | "sent" | "parked" | "failed";
  lastError: string | null;
  /** the statement as stored, parsed */
  statement: Record<string, unknown>;
}

/**
 * The statements made for `activityId`, oldest first, each with its state as the manager counts
 * it: waiting while its waiting row is there, else its outcome (parked, failed) or sent.
 */
export async function storedStatements(activityId: string, client: PrismaClient = db()): Promise<StoredStatement[]> {
  const rows = await client.xapiStatement.findMany({
    where: { activityId },
    include: { waiting: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((r) => ({
    id: r.id,
    userId: r.userId,
    verb: r.verb,
    createdAt: r.createdAt,
    state: r.waiting ? "waiting" : ((r.outcome as "parked" | "failed" | null) ?? "sent"),
    lastError: r.waiting ? r.waiting.lastError : r.lastError,
    statement: JSON.parse(statementJson(r.body)) as Record<string, unknown>,
  }));
}
