/**
 * Slides from a PDF are drawn off the event loop that serves live classes (docs/benchmarks.md "A PDF brought in
 * beside a live lesson"). The row: live fan-out to one class of 40 students, quiet and then while a teacher of
 * another school brings a 50-page PDF in as scenes (the real slides route, import after import for the whole
 * measurement), eight pairs in turn; target: the p99 of every delivery while importing under 1.5× the p99 of
 * every quiet delivery; none missed or out of order in any run.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPrismaClient } from "@/platform/db/client";
import { craftPdf } from "../../tests/support/pdf-craft";
import type { BenchData, RunningApp } from "./app";
import { median, sessionCookie } from "./http";
import { fanoutBeside } from "./print-load";
import type { Row } from "./scenarios";

const PAGES = 50;
/** Each import adds 50 scenes and an activity holds 200: enough activities that every import has room. */
const ACTIVITIES = 40;

/** Activities of one science template each (5 scenes), of `schoolId`, at their versions. */
async function seedActivities(databaseUrl: string, schoolId: string) {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const { createActivityFromTemplate } = await import("../../prisma/seed/factories");
    const made = [];
    for (let i = 0; i < ACTIVITIES; i++) {
      const { id } = await createActivityFromTemplate(db, {
        templateId: "science-dissolve",
        schoolId,
        title: `スライド${i}`,
      });
      made.push(await db.activity.findUniqueOrThrow({ where: { id }, select: { id: true, version: true } }));
    }
    return made;
  } finally {
    await db.$disconnect();
  }
}

export async function fanoutWhileImportingSlides(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const teacherClass = data.classes.at(-1)!;
  const activities = await seedActivities(databaseUrl, teacherClass.schoolId);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "bench-slides-")), "deck.pdf");
  writeFileSync(file, craftPdf({ pages: PAGES }));
  const beside = await fanoutBeside(app, data, {
    BUSY_COOKIE: await sessionCookie(teacherClass.teacher.id, "teacher"),
    BUSY_JOB: "slides",
    BUSY_PDF: file,
    BUSY_ACTIVITIES: JSON.stringify(activities),
  });
  return {
    scenario: `live fan-out to 40 students while a teacher of another school brings a ${PAGES}-page PDF in as scenes (import after import), beside the same without, 8 pairs in turn`,
    measured: `${beside.measured("importing")}; ${beside.jobs.length} imports, median ${Math.round(median(beside.jobs))} ms each; ${beside.faults}`,
    target: "p99 while importing < 1.5× the quiet p99, none missed or out of order",
    ok: beside.ok,
  };
}
