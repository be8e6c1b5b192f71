/**
 * Sign-in sheets are rendered off the event loop that serves live classes (docs/benchmarks.md
 * "A print beside a live lesson").
 * The row: live fan-out to one class of 40 students, quiet and then while a teacher prints
 * 1,000 sign-in cards (the real sheets route, print after print for the whole measurement),
 * in the same run, eight pairs in turn; target: the p99 of every delivery while printing under
 * 1.5× the p99 of every quiet delivery; none missed or out of order in any run.
 */
import { fork } from "node:child_process";
import path from "node:path";
import { createPrismaClient } from "@/platform/db/client";
import { sealNewCode } from "@/platform/auth/signin-code-crypto";
import { type BenchData, type RunningApp, SECRETS } from "./app";
import { median, percentile, sessionCookie } from "./http";
import { liveFanout, type Row } from "./scenarios";

const CARDS = 1000;
const ROUNDS = 30;
/**
 * Quiet and printing runs, in turn, so that the machine's moods touch both; the row's p99s are over all
 * of each kind's deliveries (a run's p99 of 1,200 is about its worst round, and one pair's moved by 2×
 * from one minute to the next, quiet as much as printing: eight pairs, 9,600 deliveries of each kind, so
 * that one unlucky round of either moves the ratio less; the target is the same).
 */
const PAIRS = 8;

/** A school of its own in the bench academy: a teacher and 1,000 students with sign-in codes. */
async function seedPrintSchool(databaseUrl: string): Promise<string> {
  const db = createPrismaClient(databaseUrl, 2);
  try {
    const { academyId } = await db.school.findFirstOrThrow({ select: { academyId: true } });
    const school = await db.school.create({
      data: { academyId, name: "ベンチ印刷中学校", nameKana: "べんちいんさつちゅうがっこう" },
    });
    const teacher = await db.user.create({
      data: {
        role: "teacher",
        groupType: "school",
        schoolId: school.id,
        email: "print@bench.example",
        name: "印刷 先生",
      },
    });
    const ids = Array.from({ length: CARDS }, () => crypto.randomUUID());
    await db.user.createMany({
      data: ids.map((id, n) => ({
        id,
        role: "student" as const,
        groupType: "school" as const,
        schoolId: school.id,
        name: `印刷 生徒${n + 1}`,
      })),
    });
    await db.studentDetail.createMany({
      data: ids.map((userId, n) => ({
        userId,
        grade: 1,
        className: "1",
        number: n + 1,
        counterbalanceGroup: n % 2 ? "A" : "B",
      })),
    });
    await db.signinCode.createMany({
      data: ids.map((userId) => ({ userId, ...sealNewCode(SECRETS.SIGNIN_CODE_KEY), code: undefined })),
    });
    return teacher.id;
  } finally {
    await db.$disconnect();
  }
}

export async function fanoutWhilePrinting(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const cookie = await sessionCookie(await seedPrintSchool(databaseUrl), "teacher");
  const beside = await fanoutBeside(app, data, { BUSY_COOKIE: cookie, BUSY_JOB: "sheets" });
  return {
    scenario: `live fan-out to 40 students while a teacher prints ${CARDS} sign-in cards (print after print), beside the same without printing, ${PAIRS} pairs in turn`,
    measured: `${beside.measured("printing")}; ${beside.jobs.length} prints, median ${Math.round(median(beside.jobs))} ms each; ${beside.faults}`,
    target: "p99 while printing < 1.5× the quiet p99, none missed or out of order",
    ok: beside.ok,
  };
}

type Fanout = Awaited<ReturnType<typeof liveFanout>>;

/**
 * Live fan-out to one class of 40, quiet and then while the teacher's computer (tools/bench/busy-client.ts, a
 * process of its own, `env` naming its job) does its job one after another, PAIRS pairs in turn after one
 * job as a warm-up. `ok`: the p99 of every busy delivery under 1.5× that of every quiet one, none missed or
 * out of order; `measured(busy)` says both p99s and each pair's.
 */
export async function fanoutBeside(app: RunningApp, data: BenchData, env: Record<string, string>) {
  const client = fork(path.join(import.meta.dirname, "busy-client.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, BUSY_URL: app.url, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = () =>
    new Promise<{ ready?: boolean; times?: number[]; error?: string }>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the teacher's client exited (${code})`));
      client.once("exit", onExit);
      client.once("message", (m) => {
        client.off("exit", onExit);
        resolve(m as { times?: number[]; error?: string });
      });
    });
  const ask = async (command: "run" | "start" | "stop") => {
    if (command === "start") return (void client.send(command), []);
    const answer = next();
    client.send(command);
    const { times, error } = await answer;
    if (error) throw new Error(error);
    return times!;
  };
  await next(); // ready
  const jobs: number[] = [];
  await ask("run"); // warm-up: a worker starts, fonts or binaries load
  const classes = data.classes.slice(0, 1);
  // quiet, then busy, PAIRS times in turn (so that the machine's moods touch both)
  const pairs: { quiet: Fanout; loaded: Fanout; ratio: number }[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const quiet = await liveFanout(app, classes, ROUNDS);
    await ask("start");
    let loaded: Fanout;
    try {
      loaded = await liveFanout(app, classes, ROUNDS);
    } finally {
      jobs.push(...(await ask("stop")));
    }
    pairs.push({ quiet, loaded, ratio: loaded.p99 / Math.max(quiet.p99, 0.1) });
  }
  client.disconnect(); // it exits
  const all = (kind: "quiet" | "loaded") => pairs.flatMap((p) => p[kind].latencies);
  const quiet = { p99: percentile(all("quiet"), 99), p50: median(all("quiet")), n: all("quiet").length };
  const loaded = { p99: percentile(all("loaded"), 99), p50: median(all("loaded")), n: all("loaded").length };
  const ratio = loaded.p99 / Math.max(quiet.p99, 0.1);
  const missed = pairs.reduce((n, p) => n + p.loaded.missed + p.quiet.missed, 0);
  const disordered = pairs.reduce((n, p) => n + p.loaded.disordered + p.quiet.disordered, 0);
  return {
    ok: ratio < 1.5 && missed === 0 && disordered === 0,
    jobs,
    faults: `missed ${missed}, out of order ${disordered} (all pairs)`,
    measured: (busy: string) =>
      `p99 ${Math.round(loaded.p99)} ms ${busy} vs ${Math.round(quiet.p99)} ms quiet → ${ratio.toFixed(2)}× (p50 ${Math.round(loaded.p50)} vs ${Math.round(quiet.p50)} ms; ${loaded.n} and ${quiet.n} deliveries); ` +
      `pairs (${busy}/quiet p99) ${pairs.map((p) => `${Math.round(p.loaded.p99)}/${Math.round(p.quiet.p99)} ms ${p.ratio.toFixed(2)}×`).join(", ")}`,
  };
}
