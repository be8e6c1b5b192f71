/**
 * The year-end rollover row: a manager applies the rollover of a school of
 * 1,000 students (grades 1–3, eight 組 each, everyone with a sign-in card, 30 activities of the
 * year), the first grade's 組 rotated (1→2, …, 8→1) so a third of the cards are reissued. Timed
 * over HTTP from the production server: the server action the rollover screen calls, signed in,
 * until its reply. A rollover happens once per school and year, so each run has a school of its own.
 */
import { createPrismaClient } from "@/platform/db/client";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { type RunningApp, SECRETS } from "./app";
import { actionId, actionResult, callAction, sessionCookie } from "./http";
import { timingRow, type Row } from "./verdict";

const STUDENTS = 1000;
const CLASSES = 8;
const RUNS = 3;
const LIMIT_MS = 10_000;

/** A school of the bench academy with its students, cards and activities; returns its id and year. */
async function seedRolloverSchool(
  databaseUrl: string,
  n: number,
): Promise<{ schoolId: string; year: number; name: string }> {
  const db = createPrismaClient(databaseUrl, 4);
  try {
    const { createActivityFromTemplate } = await import("../../prisma/seed/factories");
    const academy = await db.academy.findFirstOrThrow({ select: { id: true } });
    const school = await db.school.create({
      data: { academyId: academy.id, name: `年次中学校${n}`, nameKana: "ねんじちゅうがっこう" },
      select: { id: true, currentYear: true },
    });
    const users = Array.from({ length: STUDENTS }, (_, i) => ({ id: crypto.randomUUID(), i }));
    await db.user.createMany({
      data: users.map((u) => ({
        id: u.id,
        role: "student" as const,
        groupType: "school" as const,
        schoolId: school.id,
        name: `生徒 ${u.i}`,
      })),
    });
    // seats: grade 1–3, 組 1–8, numbers from 1 within the class
    await db.studentDetail.createMany({
      data: users.map((u) => ({
        userId: u.id,
        grade: 1 + (u.i % 3),
        className: String(1 + (Math.floor(u.i / 3) % CLASSES)),
        number: 1 + Math.floor(u.i / (3 * CLASSES)),
      })),
    });
    await db.signinCode.createMany({
      data: users.map((u) => ({ userId: u.id, ...sealNewCode(SECRETS.SIGNIN_CODE_KEY), code: undefined })),
    });
    for (let a = 0; a < 30; a++)
      await createActivityFromTemplate(db, {
        templateId: "science-dissolve",
        schoolId: school.id,
        mode: "self",
        title: `活動${a}`,
      });
    await db.$executeRawUnsafe("analyze");
    return { schoolId: school.id, year: school.currentYear, name: `年次中学校${n}` };
  } finally {
    await db.$disconnect();
  }
}

export async function rolloverRow(app: RunningApp, databaseUrl: string): Promise<Row> {
  const db = createPrismaClient(databaseUrl, 2);
  const academy = await db.academy.findFirstOrThrow({ select: { id: true } });
  const manager = await db.user.create({
    data: {
      role: "manager",
      groupType: "academy",
      academyId: academy.id,
      email: `rollover-${Date.now()}@bench.example`,
      name: "年次 管理",
    },
    select: { id: true },
  });
  await db.$disconnect();
  const cookie = await sessionCookie(manager.id, "manager");
  const id = actionId("features/rostering/server/rollover-actions.ts", "applyRolloverAction");
  const classMoves = Array.from({ length: CLASSES }, (_, c) => ({
    grade: 1,
    className: String(c + 1),
    to: String(((c + 1) % CLASSES) + 1),
  }));
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { schoolId, year, name } = await seedRolloverSchool(databaseUrl, run);
    const page = `/dashboard/manager/schools/${schoolId}/rollover`;
    const t = performance.now();
    // the top grade graduates: the manager confirms by typing the school's name
    const reply = await callAction(
      app.url,
      page,
      id,
      [{ schoolId, expectedYear: year, topGrade: 3, classMoves, confirmName: name }],
      cookie,
    );
    times.push(performance.now() - t);
    const result = actionResult(reply);
    if (!result?.ok) throw new Error(`rollover: HTTP ${reply.status}, ${JSON.stringify(result)}`);
  }
  return timingRow(
    {
      name: `year-end rollover of a ${STUDENTS.toLocaleString("en")}-student school (3 grades × ${CLASSES} 組, a third of the cards reissued, 30 activities archived): the server action over HTTP, signed in`,
      target: "applied in under 10 s",
      limitMs: LIMIT_MS,
    },
    times,
  );
}
