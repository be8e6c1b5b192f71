import { db } from "@/platform/db";
import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
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

type StatementRow = Omit<Prisma.XapiStatementCreateManyInput, "statement"> & { id: string; statement: object };

/** Stores `rows` as the record worker stores statements: each row, and its JSON (`statement`) in xapi_statement_bodies. */
export async function storeStatementRows(rows: StatementRow[], client: PrismaClient = db()) {
  await client.xapiStatement.createMany({ data: rows.map(({ statement: _, ...row }) => row) });
  await client.xapiStatementBody.createMany({ data: rows.map((r) => ({ id: r.id, statement: r.statement })) });
}
