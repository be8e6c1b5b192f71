/**
 * The load scenarios of issue 9, run against a started bench app. Each returns
 * rows for the report; a row's `ok` says whether its target was met.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { gzipSync } from "node:zlib";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { SESSION_COOKIE } from "@/lib/auth/cookies";
import { ROOT } from "../lib/prepare-db";
import { answerFor, BENCH_PASSWORD, type BenchClass, type BenchData, type BenchStudent, type RunningApp } from "./app";
import { actionId, callAction, median, openSse, percentile, pool, request, sessionCookie, setCookies, type SseClient } from "./http";

export interface Row {
  scenario: string;
  measured: string;
  target: string;
  ok: boolean;
  note?: string;
}

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

/**
 * `classes` teachers each run a live session followed by their 40 students
 * over SSE; all teachers advance at once, `rounds` times. Latency: from the
 * teacher's request leaving to each student's stream delivering the scene.
 * Each teacher presses at a random moment within `windowMs` of the round's
 * start (10: the headline, all in the same 10 ms).
 */
export async function liveFanout(app: RunningApp, classes: BenchClass[], rounds: number, windowMs = 0) {
  const start = actionId("lib/live/actions.ts", "startSessionAction");
  const end = actionId("lib/live/actions.ts", "endSessionAction");
  const teacherCookies = await Promise.all(classes.map((c) => sessionCookie(c.teacher.id, "teacher")));
  const guidePath = (c: BenchClass) => `/dashboard/teacher/activities/guide/${c.activityId}`;
  // the lessons start ten at a time (the setting up, not what is measured: fifty interactive
  // transactions at once on a just-started instance can outwait Prisma's 2 s for a connection)
  await pool(classes, 10, async (c, i) => {
    await callAction(app.url, guidePath(c), start, [{ activityId: c.activityId }], teacherCookies[i]!);
  });

  let round = 0;
  const followers: Follower[] = [];
  const students = classes.flatMap((c, classIndex) => c.students.map((s) => ({ s, classIndex, activityId: c.activityId })));
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
        if (!f.arrivals.has(round)) f.arrivals.set(round, at);
      }
    });
    await f.client.ready;
    followers.push(f);
  });
  if (!(await waitFor(() => followers.every((f) => f.scenes.length === 1), 30_000))) throw new Error("not every student saw the session start");

  const latencies: number[] = [];
  const actionTimes: number[] = [];
  const perRoundP99: number[] = [];
  let missed = 0;
  for (round = 1; round <= rounds; round++) {
    const t0: number[] = [];
    await Promise.all(
      classes.map(async (c, i) => {
        const sceneId = c.sceneIds[round % c.sceneIds.length]!;
        if (windowMs) await sleep(Math.random() * windowMs);
        const t = (t0[i] = performance.now());
        // as the guide screen sends it (components/live/advance-scene.ts)
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
  // every student saw every scene, in the teacher's order, versions never going back
  let disordered = 0;
  for (const f of followers) {
    const c = classes[f.classIndex]!;
    const expected = Array.from({ length: rounds + 1 }, (_, r) => c.sceneIds[r % c.sceneIds.length]!);
    const monotonic = f.versions.every((v, i) => i === 0 || v >= f.versions[i - 1]!);
    if (!monotonic || f.scenes.join() !== expected.join()) disordered++;
  }
  for (const f of followers) f.client.close();
  // tidying up, ten at a time (not measured; a failure is reported, and the next start keeps a session that still runs)
  await pool(classes, 10, async (c, i) => {
    const reply = await callAction(app.url, guidePath(c), end, [{ activityId: c.activityId }], teacherCookies[i]!).catch((error: unknown) => ({ status: 0, body: String(error) }));
    if (reply.status !== 200) console.warn(`live fan-out: ending a lesson failed (HTTP ${reply.status})`);
  });
  return { action: median(actionTimes), students: followers.length, samples: latencies.length, p50: median(latencies), p99: percentile(latencies, 99), perRoundP99, missed, disordered };
}

/** The bare SSE echo (scripts/bench/echo-server.ts) with the same number of streams and rounds. */
export async function echoFanout(streams: number, rounds: number, port = Number(process.env.BENCH_ECHO_PORT ?? 3390)) {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), path.join(ROOT, "scripts/bench/echo-server.ts"), String(port)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
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
    await request(`${url}/fire`, { method: "POST", body: JSON.stringify({ round }) });
    await waitFor(() => arrivals.every((a) => a.has(round)), 5_000);
    for (const a of arrivals) if (a.has(round)) latencies.push(a.get(round)! - t0);
    await sleep(150);
  }
  for (const c of clients) c.close();
  child.kill();
  return { p50: median(latencies), p99: percentile(latencies, 99) };
}

/**
 * The fan-out rows. The headline (issue 19): the 50 teachers press "next"
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
    const limit = scaleOut ? scaledLimit : singleLimit;
    const students = classes.length * classes[0]!.students.length;
    const live = await liveFanout(app, [...classes], rounds, windowMs);
    const echo = await echoFanout(students, rounds);
    const ok = (limit === null || live.p99 < limit) && live.missed === 0 && live.disordered === 0;
    const how =
      classes.length === 1 ? ""
      : windowMs < 100 ? `, all ${classes.length} teachers press "next" within the same ${windowMs} ms (the headline)`
      : `, each teacher presses once within every ${windowMs / 1000} s (${Math.round((classes.length * 1000) / windowMs)} advances/s)`;
    rows.push({
      scenario: `live fan-out${label}: ${classes.length} class${classes.length > 1 ? "es" : ""}, ${students} students, ${rounds} rounds${how}`,
      measured: `p99 ${ms(live.p99)} (median of the ${rounds} rounds' p99s ${ms(median(live.perRoundP99))}; p50 ${ms(live.p50)}; the teacher's request alone p50 ${ms(live.action)}; ${live.samples} deliveries; missed ${live.missed}, out of order ${live.disordered}); bare SSE echo p99 ${ms(echo.p99)} → ${(live.p99 / Math.max(echo.p99, 0.1)).toFixed(1)}× the echo`,
      target: limit === null ? "none missed or out of order (latency for the record)" : `p99 < ${limit} ms, none missed or out of order`,
      ok,
    });
  }
  return rows;
}

// ---------------------------------------------------------------- answers

function answerBody(data: BenchData, s: BenchStudent, sceneIndex: number, n: number, key = crypto.randomUUID().replaceAll("-", ""), revision = 1) {
  const school = data.schools[s.schoolIndex]!;
  const scene = school.soloScenes[sceneIndex]!;
  return JSON.stringify({ activityId: school.soloActivityId, sceneId: scene.id, answer: answerFor(scene, n + revision), clientRevision: revision, idempotencyKey: key, mode: "self" });
}

function postAnswer(app: RunningApp, body: string, cookie: string) {
  return request(`${app.url}/api/v1/answers`, { method: "POST", headers: { "Content-Type": "application/json", Origin: app.url, Cookie: cookie }, body });
}

/** 1,000 students answer within 5 s; then 100 of them retry the same save. */
export async function answerBurst(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const students = data.students.slice(0, 1000);
  const cookies = await Promise.all(students.map((s) => sessionCookie(s.id, "student")));
  const keys = students.map(() => crypto.randomUUID().replaceAll("-", ""));
  const bodies = students.map((s, i) => answerBody(data, s, 1, i, keys[i]));
  const latencies: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(
    students.map(async (_s, i) => {
      await sleep(i * 4.5); // evenly over 4.5 s
      const t = performance.now();
      const reply = await postAnswer(app, bodies[i]!, cookies[i]!).catch(() => ({ status: 0 }));
      latencies.push(performance.now() - t);
      if (reply.status !== 200) failures++;
    }),
  );
  const wall = performance.now() - t0;
  // a retry of an acknowledged save (same key) must not store anything twice
  await Promise.all(students.slice(0, 100).map((_s, i) => postAnswer(app, bodies[i]!, cookies[i]!)));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ids = students.map((s) => s.id);
  const { rows } = await client.query<{ n: string; d: string }>(
    "select count(*) n, count(distinct user_id) d from responses where user_id = any($1::uuid[]) and scene_position = 1",
    [ids],
  );
  await client.end();
  const stored = Number(rows[0]!.n);
  const ok = failures === 0 && stored === 1000 && Number(rows[0]!.d) === 1000 && percentile(latencies, 99) < 500 && wall < 5_000 + 1_000;
  return {
    scenario: "answer burst: 1,000 students answer within 5 s (then 100 retries)",
    measured: `p99 ${ms(percentile(latencies, 99))} (p50 ${ms(median(latencies))}); ${1000 - failures} acknowledged, ${stored} rows stored for 1,000 students`,
    target: "all stored exactly once, p99 < 500 ms",
    ok,
  };
}

/** Saves per second through the app vs single-row INSERTs into the same database, both with `concurrency` in flight. */
/** CPU ticks (user + system) used so far by each process `pick` selects, from /proc (Linux). */
function cpuTicks(pick: (pid: number, comm: string) => boolean): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!pick(Number(entry), comm)) continue;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12])); // utime, stime (fields 14 and 15 of the line)
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks;
}

/** CPU seconds the processes used between two readings (a process that started meanwhile counts from zero; one that ended is lost). */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += Math.max(0, t - (before.get(pid) ?? 0));
  return ticks / 100; // USER_HZ
}

/** Who used the cores during `work`: the app, PostgreSQL, the load client (this process), as shares of one core. */
async function cpuSplit<T>(app: RunningApp, work: () => Promise<T>): Promise<{ result: T; split: string }> {
  const appPids = new Set(app.pids);
  const measure = () => ({
    app: cpuTicks((pid) => appPids.has(pid)),
    pg: cpuTicks((_pid, comm) => comm === "postgres"),
    client: process.cpuUsage(),
    at: performance.now(),
  });
  const before = measure();
  const result = await work();
  const after = measure();
  const wall = (after.at - before.at) / 1000;
  const clientS = (after.client.user - before.client.user + after.client.system - before.client.system) / 1e6;
  const pct = (s: number) => `${Math.round((s / wall) * 100)} %`;
  return { result, split: `CPU: app ${pct(cpuBetween(before.app, after.app))}, PostgreSQL ${pct(cpuBetween(before.pg, after.pg))}, load client ${pct(clientS)} of one core` };
}

/**
 * The sustained save rate through the app against bare single-row INSERTs at the same concurrency,
 * `runs` times in turn (app, then INSERTs, so that the machine's moods touch both); judged on the
 * median of the runs' ratios.
 */
export async function sustainedAnswers(app: RunningApp, data: BenchData, databaseUrl: string, concurrency = 16, seconds = 6, runs = 3): Promise<Row> {
  // the scenes the burst left, of every school's solo activity (emptied before each run): a first pass inserts a
  // row per student and scene, the next passes change the answers (a newer revision each), until the time is up
  const SCENES = [0, 2, 3, 4];
  const sceneIds = data.schools.flatMap((school) => SCENES.map((i) => school.soloScenes[i]!.id));
  const work = [1, 2, 3, 4, 5].flatMap((revision) => data.students.flatMap((s, n) => SCENES.map((scene) => ({ s, scene, n, revision }))));
  const cookies = new Map(await Promise.all(data.students.map(async (s) => [s.id, await sessionCookie(s.id, "student")] as const)));
  const raw = new pg.Pool({ connectionString: databaseUrl, max: concurrency });
  await raw.query("create table if not exists bench_raw_inserts (id uuid primary key default gen_random_uuid(), user_id uuid not null, scene_id uuid not null, answer jsonb not null, created_at timestamptz not null default now())");

  const results: { appRate: number; rawRate: number; ratio: number; saved: number; split: string }[] = [];
  let errors = 0;
  for (let run = 0; run < runs; run++) {
    await raw.query("delete from responses where scene_id = any($1::uuid[])", [sceneIds]);
    // the bench's own clean-up (and the scenarios before) must not be paid for by the run: vacuum it away first
    await raw.query("vacuum analyze responses");
    let next = 0;
    let saved = 0;
    const deadline = performance.now() + seconds * 1000;
    const t0 = performance.now();
    const { split } = await cpuSplit(app, () =>
      Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < deadline && next < work.length) {
            const w = work[next++]!;
            const reply = await postAnswer(app, answerBody(data, w.s, w.scene, w.n, undefined, w.revision), cookies.get(w.s.id)!).catch(() => ({ status: 0 }));
            if (reply.status === 200) saved++;
            else {
              errors++;
              if (errors <= 3) console.error(`save refused: HTTP ${reply.status} ${"body" in reply ? reply.body.slice(0, 200) : ""}`);
            }
          }
        }),
      ),
    );
    const appRate = saved / ((performance.now() - t0) / 1000);

    let inserted = 0;
    const rawDeadline = performance.now() + seconds * 1000;
    const r0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_x, worker) => {
        while (performance.now() < rawDeadline) {
          await raw.query("insert into bench_raw_inserts (user_id, scene_id, answer) values ($1, $2, $3)", [crypto.randomUUID(), crypto.randomUUID(), JSON.stringify({ first: "more", second: "sure", reason: `理由 ${worker}` })]);
          inserted++;
        }
      }),
    );
    const rawRate = inserted / ((performance.now() - r0) / 1000);
    results.push({ appRate, rawRate, ratio: appRate / rawRate, saved, split });
  }
  await raw.end();
  const byRatio = [...results].sort((a, b) => a.ratio - b.ratio);
  const mid = byRatio[Math.floor(byRatio.length / 2)]!;
  const pct = (r: number) => `${Math.round(r * 100)} %`;
  return {
    scenario: `sustained saves, ${concurrency} in flight${concurrency === 40 ? " (a class saving at once)" : ""}, ${runs} runs of ${seconds} s`,
    measured: `median run: ${Math.round(mid.appRate)} saves/s through the app vs ${Math.round(mid.rawRate)} single-row INSERTs/s → ${pct(mid.ratio)} (${mid.split}); runs ${results.map((r) => pct(r.ratio)).join(", ")}; a row per student and scene, then newer revisions${errors ? `; ${errors} errors` : ""}`,
    target: "≥ 25 % of the raw INSERT rate",
    ok: mid.ratio >= 0.25 && errors === 0,
  };
}

// ---------------------------------------------------------------- sign-in storm

/** The QR flow of one student: the code URL, the page, the sign-in action. Returns the failure, or null. */
async function codeSignIn(app: RunningApp, action: string, code: string): Promise<string | null> {
  const first = await request(`${app.url}/auth/auth-with-code?code=${encodeURIComponent(code)}`);
  const pending = setCookies(first)["manabiya-pending-code"];
  if (first.status !== 307 || !pending) return `redirect ${first.status}`;
  const cookie = `manabiya-pending-code=${pending}`;
  const page = await request(`${app.url}/auth/auth-with-code`, { headers: { Cookie: cookie } });
  if (page.status !== 200) return `page ${page.status}`;
  const reply = await callAction(app.url, "/auth/auth-with-code", action, [], cookie);
  if (reply.status !== 200) return `action ${reply.status}`;
  if (reply.body.includes('"throttled"')) return "throttled";
  if (!reply.body.includes('"ok":true') || !setCookies(reply)[SESSION_COOKIE]) return "refused";
  return null;
}

export async function signinStorm(app: RunningApp, data: BenchData): Promise<Row[]> {
  const action = actionId("lib/auth/actions.ts", "signInWithCode");
  const students = data.students.slice(0, 1000);
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const spreadMs = 30_000;
  const t0 = performance.now();
  await Promise.all(
    students.map(async (s, i) => {
      await sleep((i * spreadMs) / students.length);
      const t = performance.now();
      const failure = await codeSignIn(app, action, s.code).catch((e: unknown) => String(e));
      latencies.push(performance.now() - t);
      if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const errors = [...failures.values()].reduce((a, b) => a + b, 0);
  const codeRow: Row = {
    scenario: `sign-in storm: 1,000 QR sign-ins from one address in ${Math.round(wall)} s`,
    measured: `p99 ${ms(percentile(latencies, 99))} (p50 ${ms(median(latencies))}) for the whole QR flow (link → page → sign-in); ${errors} failed${errors ? ` (${[...failures].map(([k, v]) => `${k} ×${v}`).join(", ")})` : ""}, ${failures.get("throttled") ?? 0} throttled`,
    target: "0 errors, 0 throttled, p99 < 2 s",
    ok: errors === 0 && percentile(latencies, 99) < 2_000,
  };

  // 40 teachers press "sign in" at the same moment (next-auth's credentials endpoint: the same argon2 check as the form)
  const teachers = data.classes.slice(0, 40).map((c) => c.teacher);
  const prepared = await Promise.all(
    teachers.map(async () => {
      const csrf = await request(`${app.url}/api/auth/csrf`);
      const cookie = Object.entries(setCookies(csrf)).map(([k, v]) => `${k}=${v}`).join("; ");
      return { cookie, token: (JSON.parse(csrf.body) as { csrfToken: string }).csrfToken };
    }),
  );
  const pwLatencies: number[] = [];
  let pwFailures = 0;
  await Promise.all(
    teachers.map(async (t, i) => {
      const body = new URLSearchParams({ email: t.email, password: BENCH_PASSWORD, csrfToken: prepared[i]!.token, callbackUrl: "/" }).toString();
      const start = performance.now();
      const reply = await request(`${app.url}/api/auth/callback/password`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: prepared[i]!.cookie, Origin: app.url },
        body,
      });
      pwLatencies.push(performance.now() - start);
      if (!setCookies(reply)[SESSION_COOKIE]) pwFailures++;
    }),
  );
  const pwRow: Row = {
    scenario: "40 simultaneous password sign-ins (argon2id 19 MiB, t=2)",
    measured: `p99 ${ms(percentile(pwLatencies, 99))} (p50 ${ms(median(pwLatencies))}); ${pwFailures} failed`,
    target: "p99 < 2 s, none failed",
    ok: pwFailures === 0 && percentile(pwLatencies, 99) < 2_000,
  };
  return [codeRow, pwRow];
}

// ---------------------------------------------------------------- bytes per student

/** The framework's own first-load chunks (rootMainFiles of the build), gzipped as the server sends them. */
function frameworkBytes(): number {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, ".next/build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  return manifest.rootMainFiles.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(ROOT, ".next", f))).length, 0);
}

export async function bytesPerStudent(app: RunningApp, data: BenchData): Promise<Row[]> {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  try {
    const student = data.schools[4]!.students[0]!;
    const school = data.schools[4]!;
    // sign in on one device…
    const signin = await browser.newContext({ baseURL: app.url, locale: "ja-JP" });
    const page0 = await signin.newPage();
    await page0.goto(`/auth/auth-with-code?code=${student.code}`);
    await page0.waitForURL(/\/dashboard\/student\/home/, { timeout: 30_000 }).catch(() => undefined);
    const cookies = await signin.cookies();
    await signin.close();
    // …and count a first visit with an empty cache
    const context = await browser.newContext({ baseURL: app.url, locale: "ja-JP" });
    await context.addCookies(cookies.filter((c) => c.name === SESSION_COOKIE));
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const types = new Map<string, string>();
    const urls = new Map<string, string>();
    let total = 0;
    let js = 0;
    const hosts = new Set<string>();
    cdp.on("Network.requestWillBeSent", (e) => {
      urls.set(e.requestId, e.request.url);
      hosts.add(new URL(e.request.url).host);
    });
    cdp.on("Network.responseReceived", (e) => types.set(e.requestId, e.type));
    cdp.on("Network.loadingFinished", (e) => {
      if (process.env.BENCH_BYTES_DETAIL) console.log(`  ${e.encodedDataLength}\t${types.get(e.requestId)}\t${urls.get(e.requestId)?.slice(0, 120)}`);
      total += e.encodedDataLength;
      if (types.get(e.requestId) === "Script") js += e.encodedDataLength;
    });
    const settle = () => page.waitForLoadState("networkidle").catch(() => undefined);
    await page.goto("/dashboard/student/home");
    await settle();
    const homeJs = js;
    await page.goto(`/dashboard/student/activities/solo/${school.soloActivityId}`);
    await settle();
    await page.waitForTimeout(500);
    const firstVisit = total;
    const firstJs = js;
    total = 0;
    js = 0;
    await page.goto("/dashboard/student/home");
    await settle();
    await page.waitForTimeout(500);
    const repeat = total;
    await context.close();
    const framework = frameworkBytes();
    const appHost = new URL(app.url).host;
    const foreign = [...hosts].filter((h) => h !== appHost);
    const above = firstJs - framework;
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    return [
      {
        scenario: "bytes per student: first visit to the home and a solo scene",
        measured: `${kb(firstVisit)} transferred (compressed); JavaScript ${kb(firstJs)} (home alone ${kb(homeJs)}), framework's shared chunks ${kb(framework)} → ${kb(above)} above; requests to other hosts: ${foreign.length ? foreign.join(", ") : "none"}`,
        target: "≤ 230 KB in all, JS ≤ 40 KB above the framework, no other host",
        ok: firstVisit <= 230 * 1024 && above <= 40 * 1024 && foreign.length === 0,
      },
      {
        scenario: "bytes per student: repeat visit to the home",
        measured: kb(repeat),
        target: "≤ 20 KB",
        ok: repeat <= 20 * 1024,
      },
    ];
  } finally {
    await browser.close();
  }
}
