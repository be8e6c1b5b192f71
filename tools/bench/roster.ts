/**
 * The `roster` bench group: `npm run roster -- import` of a bulk set of 10,000
 * students (10 schools × 25 homerooms × 40, with 担任) into an empty academy, run as an IT office
 * runs it (its own process, production settings). Target: under 30 s, peak RSS bounded.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { writeRosterPackage } from "@/features/rostering/shared/oneroster-write";
import { citySchools, rosterSet } from "../../tests/support/roster-fixture";
import { benchDatabase, SECRETS } from "./app";
import type { Row } from "./scenarios";

const SCHOOLS = 10;
const CLASSES = 25;
const SIZE = 40;
const LIMIT_MS = 30_000;
const RSS_LIMIT_MB = 1024;

const schools = () => citySchools(SCHOOLS, CLASSES, SIZE);

export async function rosterImport(): Promise<Row> {
  const { url } = await benchDatabase("manabiya_bench_roster");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`insert into academies (name, name_kana) values ('ベンチ市', 'べんちし')`);
  await client.end();
  const dir = mkdtempSync(path.join(tmpdir(), "bench-roster-"));
  for (const [name, bytes] of Object.entries(writeRosterPackage(rosterSet(schools()))))
    writeFileSync(path.join(dir, name), bytes);
  const started = performance.now();
  const { code, err, out } = await new Promise<{ code: number | null; err: string; out: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        "tools/cli/roster.ts",
        "import",
        dir,
        "--academy",
        "ベンチ市",
        "--json",
      ],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          MANABIYA_ENV_FILE: "",
          NODE_ENV: "production",
          DATABASE_URL: url,
          AUTH_URL: "https://bench.example",
          LOG_LEVEL: "warn",
          ...SECRETS,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let e = "";
    let o = "";
    child.stdout.on("data", (d: Buffer) => (o += d.toString()));
    child.stderr.on("data", (d: Buffer) => (e += d.toString()));
    child.once("exit", (c) => resolve({ code: c, err: e, out: o }));
  });
  const ms = performance.now() - started;
  if (process.env.BENCH_VERBOSE) console.error(err);
  rmSync(dir, { recursive: true, force: true });
  const created =
    (
      JSON.parse(out.trimEnd().split("\n").at(-1) ?? "{}") as { schools?: { students: { create: number } }[] }
    ).schools?.reduce((n, s) => n + s.students.create, 0) ?? 0;
  const rss = Number(/最大メモリ (\d+) MB/.exec(out)?.[1] ?? NaN);
  const ok = code === 0 && created === SCHOOLS * CLASSES * SIZE && ms < LIMIT_MS && rss < RSS_LIMIT_MB;
  return {
    scenario: `npm run roster -- import: ${SCHOOLS * CLASSES * SIZE} students (${SCHOOLS} schools × ${CLASSES} 組 × ${SIZE}) into an empty academy`,
    target: `< ${LIMIT_MS / 1000} s wall (read, plan, one transaction per school), peak RSS < ${RSS_LIMIT_MB} MB`,
    measured: `${(ms / 1000).toFixed(1)} s, ${created} students created, exit ${code}, peak RSS ${rss} MB`,
    ratio: Math.max(ms / LIMIT_MS, rss / RSS_LIMIT_MB),
    ok,
  };
}
