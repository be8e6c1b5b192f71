/**
 * The answer rows: a burst of 1,000 saves within one second, checked
 * afterwards in the database, and the sustained save rate through the app
 * against a baseline that writes the same rows the same way without the app
 * (tools/bench/raw-writer.ts).
 */
import pg from "pg";
import { retryDelay } from "@/features/play/ui/answer-queue";
import { answerFor, type BenchData, type BenchStudent, type RunningApp } from "./app";
import { checkExactlyOnce, type SaveKey } from "./checks";
import { Pool } from "undici";
import { cpuSplit } from "./cpu";
import { median, percentile, sessionCookie } from "./http";
import { RawWriter, type RawSave } from "./raw-writer";
import type { Row } from "./verdict";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${Math.round(x)} ms`;
const newKey = () => crypto.randomUUID().replaceAll("-", "");

export function answerOf(
  data: BenchData,
  s: BenchStudent,
  sceneIndex: number,
  n: number,
  key: string,
  revision: number,
) {
  const school = data.schools[s.schoolIndex]!;
  const scene = school.soloScenes[sceneIndex]!;
  return {
    activityId: school.soloActivityId,
    sceneId: scene.id,
    answer: answerFor(scene, n + revision),
    clientRevision: revision,
    idempotencyKey: key,
    mode: "self" as const,
  };
}

/**
 * The students' tablets are other machines; here their load client shares the app's two cores.
 * So the saves go through undici's connection pool (keep-alive HTTP/1.1, one request at a time
 * per connection, as a browser's), which costs the shared cores a fraction of node:http's client.
 */
const pools = new Map<string, Pool>();
export async function postAnswer(
  app: RunningApp,
  body: string,
  cookie: string,
): Promise<{ status: number; body: string }> {
  let pool = pools.get(app.url);
  if (!pool)
    pools.set(
      app.url,
      (pool = new Pool(app.url, { connections: 1024, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 })),
    );
  const res = await pool.request({
    path: "/api/v1/answers",
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, cookie },
    body,
  });
  return { status: res.statusCode, body: await res.body.text() };
}

/** One save as the student's page sends it (features/play/ui/answer-queue.ts): saved, to be sent again (network, 5xx, 429, 408), or refused. */
async function sendOnce(app: RunningApp, body: string, cookie: string): Promise<"saved" | "retry" | "refused"> {
  const reply = await postAnswer(app, body, cookie).catch(() => null);
  if (!reply || reply.status >= 500 || reply.status === 429 || reply.status === 408) return "retry";
  if (reply.status === 200 && reply.body.includes('"ok":true')) return "saved";
  return reply.status === 200 ? "retry" : "refused";
}

const BURST = 1000;
const BURST_WINDOW_MS = 1000;
/** one save every 0.95 ms: the last leaves 949 ms after the first, so that a late timer of the load client still keeps them within the second */
const SEND_EVERY_MS = 0.95;

/**
 * 1,000 students each send a save, one every 0.95 ms (all within 1 s);
 * a save that fails is sent again once, after the page's own first retry
 * wait. Afterwards 100 acknowledged saves are sent again (the same key), and
 * the database is asked, per (respondent, scene), whether every acknowledged
 * save is stored exactly once with its key.
 */
export async function answerBurst(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const students = data.students.slice(0, BURST);
  const cookies = await Promise.all(students.map((s) => sessionCookie(s.id, "student")));
  const saves = students.map((s, i) => answerOf(data, s, 1, i, newKey(), 1));
  const bodies = saves.map((x) => JSON.stringify(x));
  const latencies: number[] = [];
  const acknowledged: SaveKey[] = [];
  const sentAt: number[] = [];
  let refused = 0;
  let retriedOnce = 0;
  let neededMore = 0;
  const t0 = performance.now() + 20;
  const { split } = await cpuSplit(app, () =>
    Promise.all(
      students.map(async (s, i) => {
        // each at its own moment (from the same origin, so a late timer does not push the later ones)
        await sleep(Math.max(0, t0 + i * SEND_EVERY_MS - performance.now()));
        const t = performance.now();
        sentAt.push(t);
        let outcome = await sendOnce(app, bodies[i]!, cookies[i]!);
        if (outcome === "retry") {
          retriedOnce++;
          await sleep(retryDelay(1));
          outcome = await sendOnce(app, bodies[i]!, cookies[i]!);
          if (outcome === "retry") neededMore++;
        }
        latencies.push(performance.now() - t);
        if (outcome === "saved")
          acknowledged.push({ userId: s.id, sceneId: saves[i]!.sceneId, key: saves[i]!.idempotencyKey });
        else if (outcome === "refused") refused++;
      }),
    ),
  );
  const window = Math.max(...sentAt) - Math.min(...sentAt);
  // a retry of an acknowledged save (same key) must not store anything twice
  const again = await Promise.all(students.slice(0, 100).map((_s, i) => sendOnce(app, bodies[i]!, cookies[i]!)));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ user_id: string; scene_id: string; idempotency_key: string }>(
    "select user_id::text, scene_id::text, idempotency_key from responses where user_id = any($1::uuid[]) and scene_id = any($2::uuid[])",
    [students.map((s) => s.id), [...new Set(saves.map((x) => x.sceneId))]],
  );
  await client.end();
  const check = checkExactlyOnce(
    acknowledged,
    rows.map((r) => ({ userId: r.user_id, sceneId: r.scene_id, key: r.idempotency_key })),
  );
  const againFailed = again.filter((o) => o !== "saved").length;
  const p99 = percentile(latencies, 99);
  const ok =
    check.ok &&
    check.acknowledged === BURST &&
    neededMore === 0 &&
    againFailed === 0 &&
    p99 < 500 &&
    window <= BURST_WINDOW_MS;
  return {
    scenario: `answer burst: ${BURST.toLocaleString("en")} students answer within 1 s (then 100 send an acknowledged save again)`,
    target: `all ${BURST.toLocaleString("en")} sent within 1 s and acknowledged, each acknowledged save stored exactly once (per respondent and scene, with its key), no client retrying more than once, p99 < 500 ms`,
    measured:
      `sent within ${ms(window)}; p99 ${ms(p99)} (p50 ${ms(median(latencies))}); ${check.acknowledged} acknowledged, ${refused} refused; ` +
      `in the database: ${check.missing} acknowledged but missing, ${check.duplicates} stored twice, ${check.otherKey} stored with another save's key; ` +
      `${retriedOnce} clients retried once, ${neededMore} needed a second retry; the 100 repeated saves (checked in the count above): ${100 - againFailed} acknowledged; ${split}`,
    ratio: p99 / 500,
    ok,
  };
}

/**
 * The scenes the burst left, of every school's solo activity (emptied before each run): the template's information,
 * choice, two-step and free-text scenes, then the fill-in-the-blanks and number scenes after them (tools/bench/app.ts).
 */
const SUSTAINED_SCENES = [0, 2, 3, 4, 5, 6];
type SustainedWork = { s: BenchStudent; scene: number; n: number; revision: number };
type SustainedRun = { appRate: number; rawRate: number; ratio: number; split: string; batch: number };

/** Each student's counterbalance group, by user id. */
async function counterbalanceGroups(admin: pg.Client): Promise<Map<string, string | null>> {
  const { rows } = await admin.query<{ user_id: string; g: string | null }>(
    "select user_id::text, counterbalance_group g from student_details",
  );
  return new Map(rows.map((r) => [r.user_id, r.g]));
}

async function emptyScenes(admin: pg.Client, sceneIds: string[]) {
  await admin.query("delete from responses where scene_id = any($1::uuid[])", [sceneIds]);
  // the bench's own clean-up (and the scenarios before) must not be paid for by the run: vacuum it away first
  await admin.query("vacuum analyze responses");
}

/** Runs `save` on each piece of work in turn from `concurrency` clients until the time is up; saves per second. */
async function savesPerSecond(
  work: SustainedWork[],
  concurrency: number,
  seconds: number,
  save: (w: SustainedWork) => Promise<boolean>,
) {
  let next = 0;
  let saved = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline && next < work.length) if (await save(work[next++]!)) saved++;
    }),
  );
  return saved / ((performance.now() - t0) / 1000);
}

function sustainedRow(
  results: SustainedRun[],
  errors: number,
  concurrency: number,
  seconds: number,
  runs: number,
): Row {
  const byRatio = [...results].sort((a, b) => a.ratio - b.ratio);
  const mid = byRatio[Math.floor(byRatio.length / 2)]!;
  const pct = (r: number) => `${Math.round(r * 100)} %`;
  return {
    scenario: `sustained saves, ${concurrency} in flight${concurrency === 40 ? " (a class saving at once)" : ""}, ${runs} runs of ${seconds} s`,
    target: "≥ 25 % of the baseline's rate (the same rows, batches and statement, straight into PostgreSQL)",
    measured:
      `median run: ${Math.round(mid.appRate)} saves/s through the app vs ${Math.round(mid.rawRate)} saves/s by the baseline (${mid.batch.toFixed(1)} saves per statement on average) → ${pct(mid.ratio)} ` +
      `(${mid.split}); runs ${results.map((r) => pct(r.ratio)).join(", ")}; a row per student and scene, then newer revisions${errors ? `; ${errors} errors` : ""}`,
    ratio: mid.ratio,
    ok: mid.ratio >= 0.25 && errors === 0,
  };
}

/**
 * The sustained save rate through the app against the baseline (RawWriter:
 * the same rows, JSON, batching, conflict handling and statement shape as
 * features/play/server/answer-writer.ts, straight into PostgreSQL) at the same
 * concurrency, `runs` times in turn (app, then baseline, so that the
 * machine's moods touch both); judged on the median of the runs' ratios.
 */
export async function sustainedAnswers(
  app: RunningApp,
  data: BenchData,
  databaseUrl: string,
  concurrency = 16,
  seconds = 6,
  runs = 5,
): Promise<Row> {
  // a first pass inserts a row per student and scene, the next passes change the answers (a newer revision each),
  // until the time is up
  const sceneIds = data.schools.flatMap((school) => SUSTAINED_SCENES.map((i) => school.soloScenes[i]!.id));
  const work = [1, 2, 3, 4, 5].flatMap((revision) =>
    data.students.flatMap((s, n) => SUSTAINED_SCENES.map((scene) => ({ s, scene, n, revision }))),
  );
  const cookies = new Map(
    await Promise.all(data.students.map(async (s) => [s.id, await sessionCookie(s.id, "student")] as const)),
  );
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const groups = await counterbalanceGroups(admin);
  const raw = new RawWriter(databaseUrl);

  const results: SustainedRun[] = [];
  let errors = 0;
  for (let run = 0; run < runs; run++) {
    await emptyScenes(admin, sceneIds);
    const { result: appRate, split } = await cpuSplit(app, () =>
      savesPerSecond(work, concurrency, seconds, async (w) => {
        const body = JSON.stringify(answerOf(data, w.s, w.scene, w.n, newKey(), w.revision));
        const reply = await postAnswer(app, body, cookies.get(w.s.id)!).catch(() => ({ status: 0, body: "" }));
        if (reply.status === 200) return true;
        if (++errors <= 3) console.error(`save refused: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
        return false;
      }),
    );
    await emptyScenes(admin, sceneIds);
    raw.resetStats();
    const rawRate = await savesPerSecond(work, concurrency, seconds, async (w) => {
      const a = answerOf(data, w.s, w.scene, w.n, newKey(), w.revision);
      const save: RawSave = {
        ...a,
        userId: w.s.id,
        position: w.scene,
        group: groups.get(w.s.id) ?? null,
        answer: JSON.stringify(a.answer),
      };
      await raw.save(save); // acknowledged, written or not (as the app's 200)
      return true;
    });
    results.push({ appRate, rawRate, ratio: appRate / rawRate, split, batch: raw.meanBatch() });
  }
  await raw.end();
  await admin.end();
  return sustainedRow(results, errors, concurrency, seconds, runs);
}
