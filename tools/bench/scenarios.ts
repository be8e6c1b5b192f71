/**
 * The load scenarios (docs/benchmarks.md "Load scenarios"), run against a
 * started bench app. Each returns rows for the report; a row's `ok` says
 * whether its target was met.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { LiveState } from "@/features/play/server/state-queries";
import { ROOT } from "../../scripts/lib/prepare-db";
import type { BenchClass, BenchData, RunningApp } from "./app";
import type { Row } from "./verdict";
import {
  actionId,
  actionResult,
  callAction,
  expectActionOk,
  median,
  openSse,
  percentile,
  pool,
  request,
  sessionCookie,
  type SseClient,
} from "./http";

export type { Row } from "./verdict";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${Math.round(x)} ms`;

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (check()) return true;
    await sleep(5);
  }
  return check();
}

// ---------------------------------------------------------------- live fan-out

interface Follower {
  classIndex: number;
  scenes: string[];
  versions: number[];
  arrivals: Map<number, number>;
  client: SseClient;
}

const guidePath = (c: BenchClass) => `/dashboard/teacher/activities/guide/${c.activityId}`;

/**
 * The lessons start ten at a time (the setting up, not what is measured: fifty interactive
 * transactions at once on a just-started instance can outwait Prisma's 2 s for a connection).
 */
export async function startLessons(app: RunningApp, classes: BenchClass[], teacherCookies: string[], start: string) {
  await pool(classes, 10, async (c, i) => {
    expectActionOk(
      await callAction(app.url, guidePath(c), start, [{ activityId: c.activityId }], teacherCookies[i]!),
      "live fan-out: starting a lesson",
    );
  });
}

/** Tidying up, ten at a time (not measured; a failure is reported, and the next start keeps a session that still runs). */
export async function endLessons(app: RunningApp, classes: BenchClass[], teacherCookies: string[], end: string) {
  await pool(classes, 10, async (c, i) => {
    const reply = await callAction(
      app.url,
      guidePath(c),
      end,
      [{ activityId: c.activityId }],
      teacherCookies[i]!,
    ).catch((error: unknown) => ({ status: 0, body: String(error) }));
    if (reply.status !== 200 || !actionResult(reply)?.ok)
      console.warn(`live fan-out: ending a lesson failed (HTTP ${reply.status} ${reply.body.slice(0, 200)})`);
  });
}

/**
 * Every student of the classes follows their lesson's stream: each new scene's arrival is kept under the
 * round `clock` says; returns once all have seen the session start.
 */
async function followLessons(app: RunningApp, classes: BenchClass[], clock: { round: number }): Promise<Follower[]> {
  const followers: Follower[] = [];
  const students = classes.flatMap((c, classIndex) =>
    c.students.map((s) => ({ s, classIndex, activityId: c.activityId })),
  );
  await pool(students, 100, async ({ s, classIndex, activityId }) => {
    const cookie = await sessionCookie(s.id, "student");
    const f: Follower = { classIndex, scenes: [], versions: [], arrivals: new Map(), client: undefined as never };
    f.client = openSse(`${app.url}/api/v1/live/${activityId}/events`, cookie, (event, data, at) => {
      if (event !== "state") return;
      const state = JSON.parse(data) as { sceneId: string | null; version: number; status: string };
      if (state.status !== "running" || !state.sceneId) return;
      f.versions.push(state.version);
      if (f.scenes.at(-1) !== state.sceneId) {
        f.scenes.push(state.sceneId);
        if (!f.arrivals.has(clock.round)) f.arrivals.set(clock.round, at);
      }
    });
    await f.client.ready;
    followers.push(f);
  });
  if (!(await waitFor(() => followers.every((f) => f.scenes.length === 1), 30_000)))
    throw new Error("not every student saw the session start");
  return followers;
}

/** Every teacher moves on to the round's scene (within `windowMs`); when each request left, by class; each reply's time into `actionTimes`. */
export async function advanceAll(
  app: RunningApp,
  classes: BenchClass[],
  teacherCookies: string[],
  round: number,
  windowMs: number,
  actionTimes: number[],
): Promise<number[]> {
  const t0: number[] = [];
  await Promise.all(
    classes.map(async (c, i) => {
      const sceneId = c.sceneIds[round % c.sceneIds.length]!;
      if (windowMs) await sleep(Math.random() * windowMs);
      const t = (t0[i] = performance.now());
      // as the guide screen sends it (features/play/ui/advance-scene.ts)
      return request(`${app.url}/api/v1/live/${c.activityId}/scene`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: app.url, Cookie: teacherCookies[i]! },
        body: JSON.stringify({ sceneId }),
      }).then((r) => {
        if (r.status !== 200) throw new Error(`advance refused: HTTP ${r.status}`);
        actionTimes.push(performance.now() - t);
      });
    }),
  );
  return t0;
}

/** The students that did not see every scene, in the teacher's order, with versions never going back. */
function disorderedFollowers(followers: Follower[], classes: BenchClass[], rounds: number): number {
  let disordered = 0;
  for (const f of followers) {
    const c = classes[f.classIndex]!;
    const expected = Array.from({ length: rounds + 1 }, (_, r) => c.sceneIds[r % c.sceneIds.length]!);
    const monotonic = f.versions.every((v, i) => i === 0 || v >= f.versions[i - 1]!);
    if (!monotonic || f.scenes.join() !== expected.join()) disordered++;
  }
  return disordered;
}

/**
 * `classes` teachers each run a live session followed by their 40 students
 * over SSE; all teachers advance at once, `rounds` times. Latency: from the
 * teacher's request leaving to each student's stream delivering the scene.
 * Each teacher presses at a random moment within `windowMs` of the round's
 * start (10: the headline, all in the same 10 ms).
 */
export async function liveFanout(app: RunningApp, classes: BenchClass[], rounds: number, windowMs = 0) {
  const start = actionId("features/play/server/actions.ts", "startSessionAction");
  const end = actionId("features/play/server/actions.ts", "endSessionAction");
  const teacherCookies = await Promise.all(classes.map((c) => sessionCookie(c.teacher.id, "teacher")));
  await startLessons(app, classes, teacherCookies, start);
  const clock = { round: 0 };
  const followers = await followLessons(app, classes, clock);

  const latencies: number[] = [];
  const actionTimes: number[] = [];
  const perRoundP99: number[] = [];
  let missed = 0;
  for (clock.round = 1; clock.round <= rounds; clock.round++) {
    const round = clock.round;
    const t0 = await advanceAll(app, classes, teacherCookies, round, windowMs, actionTimes);
    await waitFor(() => followers.every((f) => f.arrivals.has(round)), 5_000);
    const these: number[] = [];
    for (const f of followers) {
      const at = f.arrivals.get(round);
      if (at === undefined) missed++;
      else these.push(at - t0[f.classIndex]!);
    }
    latencies.push(...these);
    perRoundP99.push(percentile(these, 99));
    await sleep(150);
  }
  const disordered = disorderedFollowers(followers, classes, rounds);
  for (const f of followers) f.client.close();
  await endLessons(app, classes, teacherCookies, end);
  return {
    action: median(actionTimes),
    students: followers.length,
    samples: latencies.length,
    p50: median(latencies),
    p99: percentile(latencies, 99),
    perRoundP99,
    missed,
    disordered,
    latencies,
  };
}

/** A live state as the students' streams carry it (features/play/server/state-queries.ts), the same size: the echo's payload when the caller gives none. */
export const LIVE_STATE_SAMPLE = JSON.stringify({
  activityId: crypto.randomUUID(),
  mode: "guide",
  sessionId: crypto.randomUUID(),
  sessionStartedAt: Date.now(),
  version: 12,
  status: "running",
  sceneId: crypto.randomUUID(),
  locked: false,
  paused: false,
  revealed: false,
  timer: null,
  classKey: "2:1",
  game: null,
  standing: null,
} satisfies LiveState);

/**
 * The bare SSE echo (tools/bench/echo-server.ts) with the same number of
 * streams and rounds, each round writing `payload` (a state event's data,
 * byte for byte as the live streams send it) to every stream.
 */
export async function echoFanout(
  streams: number,
  rounds: number,
  port = Number(process.env.BENCH_ECHO_PORT ?? 3390),
  payload = LIVE_STATE_SAMPLE,
) {
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "tools/bench/echo-server.ts"), String(port)],
    {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  );
  await new Promise((resolve) => child.once("message", resolve));
  const url = `http://127.0.0.1:${port}`;
  let round = 0;
  const arrivals: Map<number, number>[] = [];
  const clients: SseClient[] = [];
  await pool(Array.from({ length: streams }), 100, async () => {
    const got = new Map<number, number>();
    const client = openSse(`${url}/events`, "", (_e, _d, at) => {
      if (!got.has(round)) got.set(round, at);
    });
    await client.ready;
    arrivals.push(got);
    clients.push(client);
  });
  const latencies: number[] = [];
  for (round = 1; round <= rounds; round++) {
    const t0 = performance.now();
    await request(`${url}/fire`, { method: "POST", body: payload });
    await waitFor(() => arrivals.every((a) => a.has(round)), 5_000);
    for (const a of arrivals) if (a.has(round)) latencies.push(a.get(round)! - t0);
    await sleep(150);
  }
  for (const c of clients) c.close();
  child.kill();
  return { p50: median(latencies), p99: percentile(latencies, 99) };
}

/**
 * The fan-out rows. The headline: the 50 teachers press "next"
 * within the same 10 ms, with the 2,000 students connected; every student's
 * stream must show the new scene within 250 ms (p99), on one instance and on
 * two behind the bench's round-robin proxy (all on the same cores). Then the
 * same presses spread over a second, and one class alone (single instance: a
 * target; two instances: that it works across them, latency for the record).
 */
export async function liveRows(app: RunningApp, data: BenchData, label = "", scaleOut = false): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [classes, rounds, singleLimit, scaledLimit, windowMs] of [
    [data.classes, 10, 250, 250, 10],
    [data.classes, 10, 250, null, 1000],
    [data.classes.slice(0, 1), 30, 50, null, 0],
  ] as const) {
    rows.push(
      await liveRow(app, [...classes], { rounds, limit: scaleOut ? scaledLimit : singleLimit, windowMs, label }),
    );
  }
  return rows;
}

/** The headline alone (every teacher presses within the same 10 ms), e.g. through a pooler. */
export function headlineRow(app: RunningApp, data: BenchData, label: string): Promise<Row> {
  return liveRow(app, data.classes, { rounds: 10, limit: 250, windowMs: 10, label });
}

interface LiveCase {
  rounds: number;
  /** p99 target in ms; null: latency for the record */
  limit: number | null;
  /** the teachers' presses spread over this window */
  windowMs: number;
  label: string;
}

async function liveRow(app: RunningApp, classes: BenchClass[], { rounds, limit, windowMs, label }: LiveCase) {
  const students = classes.length * classes[0]!.students.length;
  const live = await liveFanout(app, classes, rounds, windowMs);
  const echo = await echoFanout(students, rounds);
  const ok = (limit === null || live.p99 < limit) && live.missed === 0 && live.disordered === 0;
  const how =
    classes.length === 1
      ? ""
      : windowMs < 100
        ? `, all ${classes.length} teachers press "next" within the same ${windowMs} ms (the headline)`
        : `, each teacher presses once within every ${windowMs / 1000} s (${Math.round((classes.length * 1000) / windowMs)} advances/s)`;
  return {
    scenario: `live fan-out${label}: ${classes.length} class${classes.length > 1 ? "es" : ""}, ${students} students, ${rounds} rounds${how}`,
    measured: `p99 ${ms(live.p99)} (median of the ${rounds} rounds' p99s ${ms(median(live.perRoundP99))}; p50 ${ms(live.p50)}; the teacher's request alone p50 ${ms(live.action)}; ${live.samples} deliveries; missed ${live.missed}, out of order ${live.disordered}); bare SSE echo p99 ${ms(echo.p99)} → ${(live.p99 / Math.max(echo.p99, 0.1)).toFixed(1)}× the echo`,
    target:
      limit === null
        ? "none missed or out of order (latency for the record)"
        : `p99 < ${limit} ms, none missed or out of order`,
    ok,
    // against the limit where there is one, else against the echo with the same clients
    ratio: limit === null ? live.p99 / Math.max(echo.p99, 0.1) : live.p99 / limit,
  } satisfies Row;
}
