/**
 * The app Lighthouse looks at: `scripts/start.ts` (as `npm start` and the e2e run start it:
 * embedded PostgreSQL, fresh database, migrations, templates and the demo seed, `next build`
 * when the sources changed, the production server) on its own port and database, plus a
 * self-paced copy of the math template for the demo student.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createPrismaClient } from "@/platform/db/client";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { createActivityFromTemplate, createResponse, stableId } from "../../prisma/seed/factories";
import { ROOT } from "../../scripts/lib/prepare-db";
import { PG_PORTS } from "../../scripts/lib/ports";

/** Like the e2e ports (tests/e2e/config.ts), moved past the e2e run's extra servers (up to + 93) so both can run at once. */
export const APP_PORT = Number(process.env.LIGHTHOUSE_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 95);
const PG_PORT = Number(process.env.LIGHTHOUSE_PG_PORT ?? Number(process.env.TEST_PG_PORT ?? PG_PORTS.integration) + 50);
const DB_NAME = "manabiya_lighthouse";
export const BASE_URL = `http://localhost:${APP_PORT}`;
export const STUDENT = { email: "student01@example.com", id: stableId("user:student-1-1") };
/** The self-paced math activity the script adds (fixed id: the seed is idempotent). */
export const MATH_ACTIVITY_ID = stableId("activity:lighthouse-math");

export interface RunningApp {
  stop: () => Promise<void>;
}

async function waitUp(child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the app exited (${child.exitCode ?? child.signalCode}) before it answered`);
    const status = await fetch(`${BASE_URL}/signin`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the app at ${BASE_URL} did not answer within ${timeoutMs / 1000} s`);
}

/** Starts the app (building it first when the sources changed) and seeds the math activity. */
export async function startApp(log: (line: string) => void): Promise<RunningApp> {
  const child = spawn(process.execPath, [`${ROOT}/node_modules/tsx/dist/cli.mjs`, "scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(APP_PORT),
      EMBEDDED_PG_PORT: String(PG_PORT),
      MANABIYA_PG_DIR: ".data/pg-lighthouse",
      MANABIYA_DB_NAME: DB_NAME,
      MANABIYA_FRESH_DB: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      AUTH_URL: BASE_URL,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString("utf8").split("\n").filter(Boolean));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    // a cold build on a loaded 2-core machine takes minutes
    await waitUp(child, 600_000);
  } catch (error) {
    log(output.slice(-40).join("\n"));
    await stop();
    throw error;
  }
  const db = createPrismaClient(`postgresql://postgres:manabiya-local@127.0.0.1:${PG_PORT}/${DB_NAME}`, 2);
  try {
    const activity = await createActivityFromTemplate(db, {
      id: MATH_ACTIVITY_ID,
      templateId: "math-linear-equations",
      schoolId: DEMO_IDS.school1,
      mode: "self",
    });
    // the information scene is read: the page opens on the first question (math in its prompt and options)
    const [first] = await db.activityScene.findMany({
      where: { activityId: activity.id },
      orderBy: { position: "asc" },
      take: 1,
    });
    if (first)
      await createResponse(db, {
        activityId: activity.id,
        sceneId: first.id,
        userId: STUDENT.id,
        answer: { seen: true },
        scenePosition: first.position,
      });
  } finally {
    await db.$disconnect();
  }
  return { stop };
}
