/**
 * The statistics row: the page a teacher opens, timed over HTTP from the
 * production server (session, server render of the aggregation, HTML), for a
 * school of 1,000 students who all answered a 20-scene activity (20,000
 * responses), added to the bench academy's database as its own school.
 */
import { writeFileSync } from "node:fs";
import type { Prisma } from "@/platform/db/generated/prisma/client";
import { createPrismaClient } from "@/platform/db/client";
import { answerFor, type RunningApp } from "./app";
import { request, sessionCookie } from "./http";
import { timingRow, type Row } from "./verdict";

const STUDENTS = 1000;
const RUNS = 7;
const LIMIT_MS = 500;

/** Adds the school, its teacher and the answered activity; returns the page's path and the teacher's id. */
async function seedStatsSchool(databaseUrl: string): Promise<{ path: string; teacherId: string }> {
  const db = createPrismaClient(databaseUrl, 4);
  try {
    const { createActivityFromTemplate } = await import("../../prisma/seed/factories");
    const academy = await db.academy.findFirstOrThrow({ select: { id: true } });
    const school = await db.school.create({
      data: { academyId: academy.id, name: "統計中学校", nameKana: "とうけいちゅうがっこう" },
    });
    const teacher = await db.user.create({
      data: {
        role: "teacher",
        groupType: "school",
        schoolId: school.id,
        email: "stats@bench.example",
        name: "統計 先生",
      },
      select: { id: true },
    });
    const activity = await createActivityFromTemplate(db, {
      templateId: "science-dissolve",
      schoolId: school.id,
      mode: "self",
    });
    const base = await db.activityScene.findMany({ where: { activityId: activity.id }, orderBy: { position: "asc" } });
    // 20 scenes: the template's 5, four times
    await db.activityScene.createMany({
      data: [1, 2, 3].flatMap((round) =>
        base.map((s, i) => ({
          activityId: activity.id,
          position: round * base.length + i,
          type: s.type,
          content: s.content ?? {},
        })),
      ),
    });
    const scenes = await db.activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
    });
    const users = Array.from({ length: STUDENTS }, (_, n) => ({ id: crypto.randomUUID(), n }));
    await db.user.createMany({
      data: users.map((u) => ({
        id: u.id,
        role: "student" as const,
        groupType: "school" as const,
        schoolId: school.id,
        name: `生徒 ${u.n}`,
      })),
    });
    await db.studentDetail.createMany({
      data: users.map((u) => ({
        userId: u.id,
        grade: 1 + (u.n % 3),
        className: String(1 + (u.n % 8)),
        number: 1 + Math.floor(u.n / 24),
        counterbalanceGroup: u.n % 2 ? "A" : "B",
      })),
    });
    for (const scene of scenes) {
      await db.response.createMany({
        data: users.map((u) => ({
          activityId: activity.id,
          sceneId: scene.id,
          userId: u.id,
          answer: answerFor(scene, u.n) as Prisma.InputJsonValue,
          scenePosition: scene.position,
          counterbalanceGroup: u.n % 2 ? "A" : "B",
          mode: "self" as const,
          clientRevision: 1,
          idempotencyKey: `${u.id}-${scene.id}`.slice(0, 64),
        })),
      });
    }
    // what autovacuum does on a live database after a bulk load: planner statistics
    await db.$executeRawUnsafe("analyze");
    return { path: `/dashboard/teacher/activities/stats/${activity.id}`, teacherId: teacher.id };
  } finally {
    await db.$disconnect();
  }
}

export async function statsPage(app: RunningApp, databaseUrl: string): Promise<Row> {
  const { path, teacherId } = await seedStatsSchool(databaseUrl);
  const cookie = await sessionCookie(teacherId, "teacher");
  const open = async () => {
    const t = performance.now();
    const reply = await request(`${app.url}${path}`, { headers: { Cookie: cookie, Accept: "text/html" } });
    const elapsed = performance.now() - t;
    // the whole page, server-rendered, counting every student
    if (reply.status !== 200 || !reply.body.includes(`data-key="started" data-count="${STUDENTS}"`)) {
      throw new Error(
        `stats page: HTTP ${reply.status}, ${reply.body.length} bytes without ${STUDENTS} students started`,
      );
    }
    // BENCH_STATS_HTML=<file> keeps the page, to see what it is made of
    if (process.env.BENCH_STATS_HTML) writeFileSync(process.env.BENCH_STATS_HTML, reply.body);
    return { elapsed, bytes: Buffer.byteLength(reply.body) };
  };
  const first = await open(); // warm-up (the route's first render compiles nothing in production, but fills caches as a second teacher would find them)
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push((await open()).elapsed);
  const row = timingRow(
    {
      name: `statistics page a teacher opens, ${STUDENTS.toLocaleString("en")} students × 20 scenes (20,000 responses): GET over HTTP, signed in`,
      target: "the page (server render to HTML) arrives in well under a second",
      limitMs: LIMIT_MS,
    },
    times,
  );
  return {
    ...row,
    measured: `${row.measured}; ${Math.round(first.bytes / 1024)} KB of HTML; first open ${Math.round(first.elapsed)} ms`,
  };
}
