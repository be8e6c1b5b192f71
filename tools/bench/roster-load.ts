/**
 * The `roster-load` bench group: the largest roster set the page may send (its CSV files filling
 * the 64 MB upload limit: 100 中学校, 102,500 people) checked (the dry run: read and planned in
 * the server's worker thread) while a student's page asks /healthz and saves answers, each every
 * 50 ms. The same load runs just before and just after without the check (the quiet figure, in the
 * same run on the same server). Target: p99 of both under 2× the quiet p99.
 *
 * The manager's computer is a process of its own (tools/bench/upload-client.ts), as it is another
 * machine in a school. Before any of it, one small set is checked: the route's first request loads
 * its code (as the first check of a server's day does, whatever its size); the row measures the
 * large set's check, not that.
 */
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { MAX_ROSTER_UPLOAD_BYTES } from "@/features/rostering/server/oneroster-package";
import { createPrismaClient } from "@/platform/db/client";
import { citySchools, rosterSet } from "../../tests/support/roster-fixture";
import type { BenchData, RunningApp } from "./app";
import { answerOf, postAnswer } from "./answers";
import { percentile, sessionCookie } from "./http";
import type { Row } from "./verdict";

const SCHOOLS = 100;
const EVERY_MS = 50;
const QUIET_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** /healthz and one student's answer saves, each every EVERY_MS until `until` settles: their latencies. */
async function studentLoad(app: RunningApp, data: BenchData, until: Promise<unknown>) {
  const student = data.students[0]!;
  const cookie = await sessionCookie(student.id, "student");
  const health: number[] = [];
  const saves: number[] = [];
  let failed = 0;
  let done = false;
  void until.finally(() => (done = true));
  let revision = 1_000_000;
  const tick = async <T>(into: number[], send: () => Promise<T>, ok: (r: T) => boolean) => {
    while (!done) {
      const t = performance.now();
      const r = await send().catch(() => null);
      into.push(performance.now() - t);
      if (r === null || !ok(r)) failed++;
      await sleep(EVERY_MS);
    }
  };
  await Promise.all([
    tick(
      health,
      () => fetch(`${app.url}/healthz`).then(async (r) => (await r.text(), r.status)),
      (s) => s === 200,
    ),
    tick(
      saves,
      () =>
        postAnswer(
          app,
          JSON.stringify(answerOf(data, student, 1, 0, crypto.randomUUID().replaceAll("-", ""), revision++)),
          cookie,
        ),
      (r) => r.status === 200,
    ),
  ]);
  return { health, saves, failed };
}

/** A set of `schools` 中学校's CSV files as the page sends them, a multipart form of `files`, written to `file`: its Content-Type and CSV bytes. */
async function setBody(schools: number, file: string): Promise<{ type: string; bytes: number }> {
  const files = writeRosterPackage(rosterSet(citySchools(schools)));
  const form = new FormData();
  let bytes = 0;
  for (const [name, data] of Object.entries(files)) {
    form.append("files", new Blob([new Uint8Array(data)], { type: "text/csv" }), name);
    bytes += data.byteLength;
  }
  if (bytes > MAX_ROSTER_UPLOAD_BYTES) throw new Error(`the bench set (${bytes} bytes) is over the upload limit`);
  const body = new Response(form);
  writeFileSync(file, new Uint8Array(await body.arrayBuffer()));
  return { type: body.headers.get("content-type")!, bytes };
}

/** The check of the set in `file` from the manager's computer (tools/bench/upload-client.ts): its status and answer. */
function checkFrom(
  app: RunningApp,
  cookie: string,
  file: string,
  type: string,
): Promise<{ status: number; body: { schools?: unknown[]; problems?: unknown[] } }> {
  const out = `${file}.answer`;
  const client = fork(path.join(import.meta.dirname, "upload-client.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      UPLOAD_URL: `${app.url}/api/v1/roster/import`,
      UPLOAD_COOKIE: cookie,
      UPLOAD_BODY: file,
      UPLOAD_TYPE: type,
      UPLOAD_OUT: out,
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let status = 0;
    client.once("message", (m) => (status = (m as { status: number }).status));
    client.once("exit", (code) =>
      status
        ? resolve({ status, body: JSON.parse(readFileSync(out, "utf8")) })
        : reject(new Error(`the upload client exited (${code})`)),
    );
  });
}

const p99 = (xs: number[]) => percentile(xs, 99);
const ms = (x: number) => `${Math.round(x)} ms`;

export async function rosterCheckBeside(app: RunningApp, data: BenchData, databaseUrl: string): Promise<Row> {
  const db = createPrismaClient(databaseUrl, 2);
  const academy = await db.academy.findFirstOrThrow({ select: { id: true } });
  const manager = await db.user.create({
    data: {
      role: "manager",
      groupType: "academy",
      academyId: academy.id,
      email: `roster-load-${Date.now()}@bench.example`,
      name: "名簿 管理",
    },
    select: { id: true },
  });
  await db.$disconnect();
  const cookie = await sessionCookie(manager.id, "manager");
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-roster-load-"));
  try {
    const small = await setBody(1, path.join(dir, "small"));
    const { type, bytes } = await setBody(SCHOOLS, path.join(dir, "largest"));
    const warm = await checkFrom(app, cookie, path.join(dir, "small"), small.type);
    if (warm.status !== 200) throw new Error(`the small set's check answered ${warm.status}`);

    const before = await studentLoad(app, data, sleep(QUIET_MS));
    const started = performance.now();
    const check = checkFrom(app, cookie, path.join(dir, "largest"), type);
    const during = await studentLoad(app, data, check);
    const checkMs = performance.now() - started;
    const answer = await check;
    const after = await studentLoad(app, data, sleep(QUIET_MS));
    return verdict({ before, during, after }, answer, checkMs, bytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Load = Awaited<ReturnType<typeof studentLoad>>;

function verdict(
  { before, during, after }: Record<"before" | "during" | "after", Load>,
  answer: Awaited<ReturnType<typeof checkFrom>>,
  checkMs: number,
  bytes: number,
): Row {
  const quiet = { health: p99([...before.health, ...after.health]), saves: p99([...before.saves, ...after.saves]) };
  const loaded = { health: p99(during.health), saves: p99(during.saves) };
  const checked =
    answer.status === 200 && answer.body.schools?.length === SCHOOLS && answer.body.problems?.length === 0;
  const ratio = Math.max(loaded.health / quiet.health, loaded.saves / quiet.saves) / 2;
  const failed = before.failed + during.failed + after.failed;
  return {
    scenario: `a student's /healthz and answer saves (each every ${EVERY_MS} ms) while a manager's computer checks the largest roster set (${SCHOOLS} 中学校, ${(bytes / 2 ** 20).toFixed(0)} MiB of CSV; the route warmed by one small set's check first), beside the same load without it`,
    target:
      "p99 of each under 2× its quiet p99 (the same load just before and after, same server); the set checked without a problem; no failed request",
    measured: `check ${(checkMs / 1000).toFixed(1)} s (HTTP ${answer.status}${checked ? "" : ", not checked"}); /healthz p99 ${ms(loaded.health)} (quiet ${ms(quiet.health)}), save p99 ${ms(loaded.saves)} (quiet ${ms(quiet.saves)}); ${during.health.length} and ${during.saves.length} requests during the check, ${failed} failed`,
    ratio,
    ok: checked && failed === 0 && ratio < 1,
  };
}
