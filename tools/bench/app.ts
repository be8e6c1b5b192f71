/**
 * The bench's own app: a scratch embedded PostgreSQL database filled with a
 * generated academy (5 schools × 10 classes × 40 students, a teacher and a
 * guide activity per class, a solo activity per school: the science template and a fill-in-the-blanks and a number
 * scene), the production build
 * (built when the sources changed) started as one or more production
 * servers (server/main.ts), and for two of them a small round-robin proxy
 * in front (tools/bench/proxy.ts, a process of its own).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { openSync } from "node:fs";
import { createPrismaClient } from "@/platform/db/client";
import { hashPassword } from "@/platform/auth/password";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { buildIsCurrent } from "../../scripts/lib/build-hash";
import { ensureEmbeddedPostgres, recreateDatabase, type RunningPg } from "../../scripts/lib/embedded-pg";
import { migrate } from "../../scripts/lib/migrate";
import { ROOT } from "../../scripts/lib/prepare-db";
import { PG_PORTS } from "../../scripts/lib/ports";
import { blanksOf } from "@/features/scenes/shared/fill-blanks";

const SCHOOLS = 5;
const CLASSES_PER_SCHOOL = 10;
const CLASS_SIZE = 40;
/** The bench's own PostgreSQL cluster (its processes are the "PostgreSQL" of the CPU split, tools/bench/cpu.ts). */
export const BENCH_PG_DIR = path.resolve(ROOT, ".data/pg-bench");
export const BENCH_PASSWORD = "bench-password-123";
export const SECRETS = { AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0000", SIGNIN_CODE_KEY: "0f".repeat(32) };

export interface BenchStudent {
  id: string;
  code: string;
  schoolIndex: number;
  classIndex: number;
}
export interface BenchClass {
  schoolId: string;
  teacher: { id: string; email: string };
  activityId: string;
  sceneIds: string[];
  students: BenchStudent[];
}
export interface BenchSchool {
  id: string;
  soloActivityId: string;
  soloScenes: { id: string; type: string; content: unknown }[];
  students: BenchStudent[];
}
export interface BenchData {
  classes: BenchClass[];
  schools: BenchSchool[];
  students: BenchStudent[];
}

/**
 * The answer-typed scenes each school's solo activity has after the science template's five (the sustained saves
 * answer them with the template's; tools/bench/answers.ts SUSTAINED_SCENES).
 */
const TYPED_SCENES = [
  {
    type: "fill_blanks",
    content: { prompt: "書こう", text: "水は[[100/百]]度でふっとうし、[[0/零]]度でこおります。" },
  },
  { type: "number", content: { prompt: "水100gに食塩は何gまでとける？", unit: "g", correct: 36, tolerance: 1 } },
] as const;

/**
 * A valid answer to a scene of the science template or of TYPED_SCENES (options and blanks taken from the scene
 * itself; some right, some wrong).
 */
export function answerFor(scene: { type: string; content: unknown }, n: number): unknown {
  type Option = { id: string };
  const c = scene.content as {
    options?: Option[];
    first?: { options: Option[] };
    second?: { options?: Option[]; optionsByFirst?: Record<string, Option[]> };
    text?: string;
  };
  if (scene.type === "fill_blanks")
    return {
      blanks: blanksOf(c.text!).map((accepted, i) => ((n + i) % 3 ? accepted[(n + i) % accepted.length]! : `${n}`)),
    };
  if (scene.type === "number") return { number: 30 + (n % 10) };
  const pick = (options: Option[]) => options[n % options.length]!.id;
  if (scene.type === "two_step") {
    const first = pick(c.first!.options);
    return { first, second: pick(c.second!.options ?? c.second!.optionsByFirst![first]!), reason: `理由 ${n}` };
  }
  if (scene.type === "single_choice") return { choice: pick(c.options!) };
  if (scene.type === "free_text") return { text: `感想 ${n}` };
  return { seen: true };
}

let pgInstance: RunningPg | undefined;
export async function benchDatabase(name: string): Promise<{ url: string; pg: RunningPg }> {
  pgInstance ??= await ensureEmbeddedPostgres({
    dir: BENCH_PG_DIR,
    port: Number(process.env.BENCH_PG_PORT ?? PG_PORTS.bench),
    portEnv: "BENCH_PG_PORT",
  });
  await recreateDatabase(pgInstance.adminUrl, name);
  const url = pgInstance.urlFor(name);
  await migrate(url);
  return { url, pg: pgInstance };
}
export async function stopBenchPostgres(): Promise<void> {
  if (pgInstance?.startedHere) await pgInstance.stop();
  pgInstance = undefined;
}

type SeedDb = ReturnType<typeof createPrismaClient>;
type CreateActivity = (typeof import("../../prisma/seed/factories"))["createActivityFromTemplate"];

/** What seeding a school works with: the client, the activity factory, and the teachers' password. */
interface Seeding {
  db: SeedDb;
  createActivity: CreateActivity;
  passwordHash: string;
  data: BenchData;
}

/** The 40 students of class `c` of school `s`, with their seats, groups and sign-in codes (kept for the bench). */
async function seedStudents({ db, data }: Seeding, schoolId: string, s: number, c: number): Promise<BenchStudent[]> {
  const students: BenchStudent[] = Array.from({ length: CLASS_SIZE }, () => ({
    id: crypto.randomUUID(),
    code: "",
    schoolIndex: s,
    classIndex: data.classes.length,
  }));
  await db.user.createMany({
    data: students.map((u, n) => ({
      id: u.id,
      role: "student" as const,
      groupType: "school" as const,
      schoolId,
      name: `生徒 ${s}-${c}-${n + 1}`,
    })),
  });
  await db.studentDetail.createMany({
    data: students.map((u, n) => ({
      userId: u.id,
      grade: 1 + (c % 3),
      className: String(c + 1),
      number: n + 1,
      counterbalanceGroup: n % 2 ? "A" : "B",
    })),
  });
  const codes = students.map((u) => ({ userId: u.id, ...sealNewCode(SECRETS.SIGNIN_CODE_KEY) }));
  await db.signinCode.createMany({ data: codes.map(({ code: _code, ...row }) => row) });
  codes.forEach((c2, i) => (students[i]!.code = c2.code));
  return students;
}

/** Class `c` of school `s`: its teacher, its guide activity and its students. */
async function seedClass(seeding: Seeding, schoolId: string, s: number, c: number): Promise<BenchClass> {
  const { db, createActivity, passwordHash } = seeding;
  const teacher = await db.user.create({
    data: {
      role: "teacher",
      groupType: "school",
      schoolId,
      email: `t${s}-${c}@bench.example`,
      passwordHash,
      name: `先生 ${s}-${c}`,
    },
    select: { id: true, email: true },
  });
  const activity = await createActivity(db, { templateId: "science-dissolve", schoolId, mode: "guide" });
  const scenes = await db.activityScene.findMany({
    where: { activityId: activity.id },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  const students = await seedStudents(seeding, schoolId, s, c);
  return {
    schoolId,
    teacher: { id: teacher.id, email: teacher.email! },
    activityId: activity.id,
    sceneIds: scenes.map((x) => x.id),
    students,
  };
}

/** School `s` of the academy: its solo activity, then its classes. */
async function seedSchool(seeding: Seeding, academyId: string, s: number): Promise<void> {
  const { db, createActivity, data } = seeding;
  const school = await db.school.create({
    data: { academyId, name: `ベンチ中学校${s + 1}`, nameKana: "べんちちゅうがっこう" },
  });
  const solo = await createActivity(db, { templateId: "science-dissolve", schoolId: school.id, mode: "self" });
  const template = await db.activityScene.count({ where: { activityId: solo.id } });
  await db.activityScene.createMany({
    data: TYPED_SCENES.map((x, i) => ({ activityId: solo.id, position: template + i, ...x })),
  });
  const soloScenes = await db.activityScene.findMany({
    where: { activityId: solo.id },
    orderBy: { position: "asc" },
    select: { id: true, type: true, content: true },
  });
  const schoolEntry: BenchSchool = { id: school.id, soloActivityId: solo.id, soloScenes, students: [] };
  for (let c = 0; c < CLASSES_PER_SCHOOL; c++) {
    const klass = await seedClass(seeding, school.id, s, c);
    data.classes.push(klass);
    schoolEntry.students.push(...klass.students);
    data.students.push(...klass.students);
  }
  data.schools.push(schoolEntry);
}

/** Fills `url` with the bench academy (`schools` × 10 classes × 40 students); returns ids and the students' sign-in codes. */
export async function seedBenchAcademy(url: string, schools = SCHOOLS): Promise<BenchData> {
  process.env.DATABASE_URL = url;
  const db = createPrismaClient(url, 4);
  const { readTemplateFiles, syncTemplates } = await import("@/features/activities/server/template-load");
  const { createActivityFromTemplate } = await import("../../prisma/seed/factories");
  await syncTemplates(db, await readTemplateFiles());
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const academy = await db.academy.create({ data: { name: "ベンチ学園", nameKana: "べんちがくえん" } });
  const data: BenchData = { classes: [], schools: [], students: [] };
  const seeding: Seeding = { db, createActivity: createActivityFromTemplate, passwordHash, data };
  for (let s = 0; s < schools; s++) await seedSchool(seeding, academy.id, s);
  await db.$executeRawUnsafe("analyze");
  await db.$disconnect();
  return data;
}

/** `next build` when the sources changed since the last one (as `npm start` does). */
export function ensureBuilt(): void {
  if (buildIsCurrent(ROOT)) return;
  console.log("building the app (next build)…");
  const result = spawnSync(process.execPath, [`${ROOT}/node_modules/tsx/dist/cli.mjs`, "scripts/build.ts"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("next build failed");
}

export interface RunningApp {
  url: string;
  /** The app processes' ids (for their CPU time). */
  pids: number[];
  stop: () => Promise<void>;
}

async function waitUp(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const status = await fetch(`${url}/signin`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`app at ${url} did not start`);
}

/**
 * `instances` × the production server (server/main.ts) on `url`'s database; with more than one, a round-robin proxy
 * in front. `env` adds to the servers' environment (e.g. DATABASE_DIRECT_URL when `databaseUrl` is a pooler).
 */
export async function startApp(
  databaseUrl: string,
  instances: number,
  env: Record<string, string> = {},
  basePort = Number(process.env.BENCH_APP_PORT ?? 3400),
): Promise<RunningApp> {
  const ports = Array.from({ length: instances }, (_, i) => basePort + 1 + i);
  // the servers run as `npm start` runs them: not on the bench's tsconfig (its `server-only` stub, which let a module
  // that `npm start` refuses load here), which tsx hands to its children's children as TSX_TSCONFIG_PATH
  const { TSX_TSCONFIG_PATH: _benchTsconfig, ...inherited } = process.env;
  const processes: ChildProcess[] = ports.map((port) =>
    spawn(
      process.execPath,
      [
        ...(process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []),
        "--import",
        "tsx",
        "server/main.ts",
      ],
      {
        cwd: ROOT,
        // every load client connects from this one address (as from a reverse proxy): no per-address cap below the total
        env: {
          HTTP_MAX_CONNECTIONS_PER_IP: "8192",
          ...inherited,
          NODE_ENV: "production",
          PORT: String(port),
          AUTH_URL: `http://localhost:${port}`,
          DATABASE_URL: databaseUrl,
          ...env,
          ...SECRETS,
          NEXT_TELEMETRY_DISABLED: "1",
        },
        stdio: ["ignore", process.env.BENCH_APP_LOG ? openSync(process.env.BENCH_APP_LOG, "a") : "ignore", "inherit"],
      },
    ),
  );
  await Promise.all(ports.map((p) => waitUp(`http://127.0.0.1:${p}`)));
  const pids = processes.map((p) => p.pid!).filter(Boolean);
  let url = `http://127.0.0.1:${ports[0]}`;
  if (instances > 1) {
    // the round-robin balancer in a process of its own (tools/bench/proxy.ts), as a real one is
    const proxy = spawn(
      process.execPath,
      ["--import", "tsx", "tools/bench/proxy.ts", String(basePort), ...ports.map(String)],
      {
        cwd: ROOT,
        stdio: ["ignore", "ignore", "inherit", "ipc"],
      },
    );
    await new Promise<void>((resolve, reject) => {
      proxy.once("message", () => resolve());
      proxy.once("exit", (code) => reject(new Error(`the bench's proxy exited (${code})`)));
    });
    processes.push(proxy);
    url = `http://127.0.0.1:${basePort}`;
  }
  const stop = async () => {
    await Promise.all(
      processes.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null) return resolve();
            p.once("exit", () => resolve());
            p.kill("SIGTERM");
            setTimeout(() => p.kill("SIGKILL"), 5000).unref();
          }),
      ),
    );
  };
  return { url, pids, stop };
}
