import type pg from "pg";
import { openClient } from "@/platform/db/connect";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createSigninCode,
  createUser,
} from "../../prisma/seed/factories";
import { TEST_SIGNIN_CODE_KEY } from "./helpers";

export const STUDENT_PASSWORD = "correct horse battery";

/** An answer of each scene type (the shapes features/scenes/shared/schema.ts accepts). */
const ANSWER_OF: Record<string, unknown> = {
  info: { seen: true },
  single_choice: { choice: "a" },
  multiple_choice: { choices: ["a", "b"] },
  free_text: { text: "水に溶けると見えなくなる\n改行と \\ と\t" },
  scale: { value: 4 },
  two_step: { first: "a", second: "x", reason: "理由があります" },
};

/**
 * A school as a backup meets it: a teacher, students with passwords and live
 * sign-in codes, a live lesson (guide session with presence) and a self-paced
 * one, an answer to every scene of both (every answer type), audit rows.
 */
export async function seedSchool(prisma: PrismaClient, students = 4) {
  await syncTemplates(prisma, await readTemplateFiles());
  const academy = await createAcademy(prisma, { name: "バックアップ市", nameKana: "ばっくあっぷし" });
  const school = await createSchool(prisma, {
    academyId: academy.id,
    name: "復元小学校",
    nameKana: "ふくげんしょうがっこう",
  });
  const teacher = await createUser(prisma, {
    role: "teacher",
    email: "teacher@backup.example",
    password: STUDENT_PASSWORD,
    schoolId: school.id,
  });
  const live = await createActivityFromTemplate(prisma, {
    templateId: "math-linear-equations",
    schoolId: school.id,
    mode: "guide",
  });
  const self = await createActivityFromTemplate(prisma, {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
  });
  const session = await prisma.guideSession.create({ data: { activityId: live.id, startedById: teacher.id } });
  const codes: { userId: string; email: string; code: string }[] = [];
  for (let n = 1; n <= students; n++) {
    const email = `student${n}@backup.example`;
    const user = await createUser(prisma, {
      role: "student",
      email,
      password: STUDENT_PASSWORD,
      schoolId: school.id,
      name: `生徒 ${n}`,
      student: { grade: 3, className: "2", number: n },
    });
    codes.push({ userId: user.id, email, code: await createSigninCode(prisma, user.id, TEST_SIGNIN_CODE_KEY) });
    await prisma.guidePresence.create({ data: { sessionId: session.id, userId: user.id } });
    for (const activity of [live, self]) {
      const scenes = await prisma.activityScene.findMany({
        where: { activityId: activity.id },
        select: { id: true, type: true, position: true },
      });
      for (const scene of scenes) {
        await createResponse(prisma, {
          activityId: activity.id,
          sceneId: scene.id,
          userId: user.id,
          scenePosition: scene.position,
          answer: ANSWER_OF[scene.type] as object,
          mode: activity.id === live.id ? "guide" : "self",
        });
      }
    }
  }
  await prisma.response.updateMany({ where: { activityId: live.id }, data: { sessionId: session.id } });
  await prisma.auditLog.create({ data: { action: "test.seed", schoolId: school.id, meta: { note: "監査" } } });
  await prisma.signinThrottle.create({ data: { key: "ip:192.0.2.1", failures: 2, windowStart: new Date() } });
  return { academy, school, teacher, live, self, session, codes };
}

/** Every table of the database's public schema, each as its sorted rows (read with SELECT, not with COPY). */
export async function tableRows(url: string): Promise<Record<string, string[]>> {
  const client = await openClient(url);
  try {
    const tables = await client.query<{ name: string }>(
      `select relname as name from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace order by 1`,
    );
    const out: Record<string, string[]> = {};
    for (const { name } of tables.rows) {
      const rows = await client.query<{ r: string }>(`select to_jsonb(t)::text as r from "${name}" t`);
      out[name] = rows.rows.map((r) => r.r).sort();
    }
    return out;
  } finally {
    await client.end();
  }
}

export async function sql<T extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = await openClient(url);
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
