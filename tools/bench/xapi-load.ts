/**
 * The learning records never slow an answer save (features/lti/README.md "Learning records"): students'
 * saves at a steady pace, IN_FLIGHT at a time, with no LRS set (the answer writer publishes nothing), beside the
 * same with every academy's LRS set and every student a OneRoster sourcedId (each save statement publishes
 * `answers.written` to pg-boss in the app's database, the xapi-record worker stores the statements and xapi-deliver
 * POSTs them to an LRS stub in a process of its own answering 200), three pairs in turn after a warm-up. A phase is
 * long enough (SAVES_PER_PHASE, some seconds) for the workers to record and send while the saves go on. Target: the
 * saves' p99 with the queue under 1.2× the p99 without, every save acknowledged, and a minute after each on phase
 * every save's statement made and sent.
 */
import { fork } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { sealSecret } from "@/platform/auth/secret-box";
import { type BenchData, type RunningApp, SECRETS } from "./app";
import { answerOf, postAnswer } from "./answers";
import { median, percentile, sessionCookie } from "./http";
import type { Row } from "./verdict";

/** Pairs of phases; a small run (`--schools` under 5) proves the row with one. */
const pairsFor = (data: BenchData) => (data.schools.length < 5 ? 1 : 3);
/**
 * Saves a phase: about six seconds of them, so that the record worker (a fetch every 2 s, the answers gathered for
 * 200 ms) and the deliveries run inside a phase, and its p99 is not one pause of the machine (1,500 until 2026-11-30).
 */
const SAVES_PER_PHASE = 9000;
const IN_FLIGHT = 16;
const STUDENTS = 200;
/** The app looks whether an academy has an LRS every 30 s (features/lti/server/xapi-queue.ts CHECK_MS). */
const SWITCH_MS = 35_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The academies' LRS (lrs-stub.ts), in a process of its own as an LRS is: its endpoint and how many statements it took. */
async function lrsStub() {
  const child = fork(path.join(import.meta.dirname, "lrs-stub.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the LRS stub exited (${code})`));
      child.once("exit", onExit);
      child.once("message", (m) => {
        child.off("exit", onExit);
        resolve(m as T);
      });
    });
  const { port } = await next<{ port: number }>();
  return {
    endpoint: `http://127.0.0.1:${port}/xapi`,
    received: async () => {
      const answer = next<{ received: number }>();
      child.send("count");
      return (await answer).received;
    },
    close: () => new Promise((r) => (child.once("exit", r), child.disconnect())),
  };
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Every academy's LRS at `endpoint` (on), or none (off); the students' sourcedIds stay. */
async function setQueue(databaseUrl: string, endpoint: string | null) {
  if (!endpoint) return query(databaseUrl, `delete from academy_lrs`);
  const sealed = sealSecret("bench:bench", SECRETS.SIGNIN_CODE_KEY, "lrs-credentials");
  await query(
    databaseUrl,
    `update users set sourced_id = 'bench-' || id where role = 'student' and sourced_id is null`,
  );
  return query(
    databaseUrl,
    `insert into academy_lrs (academy_id, endpoint, credentials_sealed, include_names, updated_at)
     select id, $1, $2, false, now() from academies on conflict (academy_id) do nothing`,
    [endpoint, sealed],
  );
}

/**
 * How far the queue is behind a minute after an on phase: the `answered` statements not made yet for the saves
 * acknowledged (`expected` in all), and the statements made but not sent.
 */
async function behind(databaseUrl: string, expected: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const [row] = await query<{ made: number; waiting: number }>(
      databaseUrl,
      `select count(*) filter (where verb = 'answered')::int as made,
         (select count(*) from xapi_statements_waiting)::int as waiting
       from xapi_statements`,
    );
    const missing = Math.max(0, expected - row!.made) + row!.waiting;
    if (missing === 0 || Date.now() > deadline) return missing;
    await sleep(1000);
  }
}

/** One phase: SAVES_PER_PHASE saves, IN_FLIGHT at a time, each a new revision of a student's scene; their latencies. */
async function phase(app: RunningApp, data: BenchData, cookies: string[], from: number) {
  const students = data.students.slice(0, cookies.length);
  const scenes = data.schools[0]!.soloScenes.length;
  const latencies: number[] = [];
  let failed = 0;
  let next = from;
  const end = from + SAVES_PER_PHASE;
  const worker = async () => {
    while (next < end) {
      const n = next++;
      const i = n % students.length;
      const round = Math.floor(n / students.length);
      const body = JSON.stringify(
        answerOf(data, students[i]!, round % scenes, n, crypto.randomUUID().replaceAll("-", ""), 1 + round),
      );
      const t = performance.now();
      const reply = await postAnswer(app, body, cookies[i]!).catch(() => null);
      latencies.push(performance.now() - t);
      if (reply?.status !== 200 || !reply.body.includes('"ok":true')) failed++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { latencies, failed };
}

export async function answersWithXapiQueue(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const lrs = await lrsStub();
  const students = data.students.filter((s) => s.schoolIndex === 0).slice(0, STUDENTS);
  const cookies = await Promise.all(students.map((s) => sessionCookie(s.id, "student")));
  const off: number[] = [];
  const on: number[] = [];
  let failed = 0;
  let unsent = 0;
  let answered = 0;
  let received = 0;
  /** each pair's p99s, on/off */
  const byPair: string[] = [];
  // warmed up first (not measured): the routes' code loaded and the save's queries compiled before either phase
  let saves = (await phase(app, { ...data, students }, cookies, 0)).latencies.length;
  const pairs = pairsFor(data);
  try {
    for (let pair = 0; pair < pairs; pair++) {
      await setQueue(databaseUrl, null);
      await sleep(SWITCH_MS);
      const quiet = await phase(app, { ...data, students }, cookies, saves);
      saves += SAVES_PER_PHASE;
      await setQueue(databaseUrl, lrs.endpoint);
      await sleep(SWITCH_MS);
      const queued = await phase(app, { ...data, students }, cookies, saves);
      saves += SAVES_PER_PHASE;
      off.push(...quiet.latencies);
      on.push(...queued.latencies);
      byPair.push(`${Math.round(percentile(queued.latencies, 99))}/${Math.round(percentile(quiet.latencies, 99))} ms`);
      failed += quiet.failed + queued.failed;
      answered += SAVES_PER_PHASE - queued.failed;
      unsent = Math.max(unsent, await behind(databaseUrl, answered));
    }
  } finally {
    await setQueue(databaseUrl, null);
    received = await lrs.received().finally(() => lrs.close());
  }
  const [p99Off, p99On] = [percentile(off, 99), percentile(on, 99)];
  const ratio = p99On / p99Off;
  const [made] = await query<{ n: number; answered: number; sent: number; counted: number }>(
    databaseUrl,
    `select count(*)::int as n, count(*) filter (where verb = 'answered')::int as answered,
       count(*) filter (where outcome is null and not exists (select from xapi_statements_waiting w where w.id = s.id))::int
         as sent,
       (select coalesce(sum(sent), 0)::int from xapi_sent_counts) as counted
       from xapi_statements s`,
  );
  // the queue did its work: an answered statement for every acknowledged save of an on phase, each statement sent,
  // counted once on the academies' LRS cards, and the LRS holding them all (a row that made none, or whose stub got
  // none, measured nothing)
  const recorded =
    made!.answered >= answered &&
    answered > 0 &&
    made!.sent === made!.n &&
    made!.counted === made!.sent &&
    received >= made!.n;
  return {
    scenario: `answer saves (${IN_FLIGHT} in flight, ${SAVES_PER_PHASE} a phase) with the xAPI queue on (an LRS for every academy, a stub taking every statement) beside it off, ${pairs} pairs in turn`,
    measured:
      `p99 ${Math.round(p99On)} ms on against ${Math.round(p99Off)} ms off (p50 ${Math.round(median(on))} / ${Math.round(median(off))} ms; pairs on/off ${byPair.join(", ")}); ` +
      `${failed} saves not acknowledged; ${made!.n} statements made (${made!.answered} answered for ${answered} saves acknowledged with the queue on), ${made!.sent} sent (${made!.counted} counted), ${received} received by the LRS, at most ${unsent} not made or not sent a minute after an on phase`,
    target: "p99 with the queue < 1.2× without; every save acknowledged, every statement sent and counted once",
    ratio,
    ok: ratio < 1.2 && failed === 0 && unsent === 0 && recorded,
  };
}
