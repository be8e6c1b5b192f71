/**
 * `npm run bench`: the performance targets the issues set, measured here and
 * not in timed tests (a shared 2-core machine is noisy). Each timed case runs
 * a warm-up and then N times and is judged on the median. Every row, timed
 * or load, prints its target, the measured value, the ratio and PASS or MISS
 * (tools/bench/verdict.ts); any MISS makes the run exit non-zero.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import v8 from "node:v8";
import vm from "node:vm";
import path from "node:path";
import { checkCsv, MAX_CSV_ROWS } from "@/features/people/shared/csv";
import { MAX_CARDS, renderSigninSheets } from "@/features/people/server/sheets";
import { BENCHMARKS_FILE, lighthouseSection } from "../lighthouse/report";

const BENCHMARKS_JSON = BENCHMARKS_FILE.replace(/\.md$/, ".json");
import { benchDatabase, ensureBuilt, seedBenchAcademy, startApp, stopBenchPostgres } from "./app";
import { fanoutWhilePrinting } from "./print-load";
import { fanoutWhileImportingSlides } from "./slides-load";
import { answersWithXapiQueue } from "./xapi-load";
import { answerBurst, sustainedAnswers } from "./answers";
import { bytesPerStudent } from "./bytes";
import { cityRow } from "./city";
import { editorBytes, furiganaTiming } from "./editor";
import { liveControlRows } from "./live-controls";
import { projectorChart } from "./projector";
import { gameLeaderboard } from "./game";
import { throughPgBouncer } from "./pooled";
import { liveRows, type Row } from "./scenarios";
import { rosterImport } from "./roster";
import { rosterCheckBeside } from "./roster-load";
import { signinStorm } from "./signin";
import { rolloverRow } from "./rollover";
import { statsPage } from "./stats-page";
import {
  benchExitCode,
  benchmarksMarkdown,
  type BenchRun,
  compareRuns,
  consoleLine,
  mergeRun,
  timingRow,
} from "./verdict";

interface Case {
  name: string;
  target: string;
  limitMs: number;
  runs: number;
  run: () => Promise<unknown> | unknown;
}

const cards = Array.from({ length: MAX_CARDS }, (_, i) => ({
  name: `試験 花子${i}`,
  reading: `しけん はなこ${i}`,
  classLine: `${(i % 3) + 1}年${(i % 8) + 1}組 ${(i % 40) + 1}`,
  school: "デモ第一中学校",
  url: `https://manabiya.example/auth/auth-with-code?code=${Buffer.from(String(i).padStart(16, "0")).toString("base64url").slice(0, 22)}`,
}));
const csv = new TextEncoder().encode(
  "学年,組,番号,氏名,ふりがな,メールアドレス\n" +
    Array.from(
      { length: MAX_CSV_ROWS },
      (_, i) => `${(i % 3) + 1},${Math.floor(i / 99) + 1},${(i % 99) + 1},生徒 ${i},せいと,s${i}@bench.example`,
    ).join("\n"),
);

const sheetTexts = {
  keepSecret: "このカードはパスワードと同じです。",
  howTo: "QRコードを読み取るとサインインできます。",
};
const cases: Case[] = [
  {
    name: "sign-in sheets PDF, 40 cards (one class)",
    target: "a class's cards are ready at once",
    limitMs: 2_000,
    runs: 5,
    run: () => renderSigninSheets(cards.slice(0, 40), sheetTexts),
  },
  {
    name: `sign-in sheets PDF, ${MAX_CARDS} cards (${MAX_CARDS / 8} A4 pages)`,
    target: "the largest allowed print finishes well inside a proxy's 60 s timeout",
    limitMs: 20_000,
    runs: 3,
    run: () => renderSigninSheets(cards, sheetTexts),
  },
  {
    name: `CSV import check, ${MAX_CSV_ROWS} rows`,
    target: "the preview of the largest allowed file answers at once",
    limitMs: 1_000,
    runs: 7,
    run: () => {
      const result = checkCsv(csv);
      if (!result.ok || result.rows.some((r) => r.errors.length > 0)) throw new Error("bench CSV should be valid");
    },
  },
];

/**
 * `--only=a,b` runs only the named groups (pdf, csv, stats, live, live-controls, projector, game, print-live,
 * slides-live, answers, xapi, signin, bytes, editor, scale, pooled, roster, rollover, roster-load, city); `--no-db` skips
 * everything that needs PostgreSQL.
 * A full run writes its rows to docs/benchmarks.json and renders docs/benchmarks.md from that file;
 * `--only=… --merge` puts the part's rows into docs/benchmarks.json in place of the same scenarios' (new ones
 * at the end of their table), marked as re-run, and renders docs/benchmarks.md again;
 * `--json=FILE` writes any run's rows to FILE, `--compare=FILE` prints how they differ from the run in FILE.
 * `--schools=N` seeds N schools of 10 classes of 40 instead of 5: a small run that proves a row works (its
 * numbers are not the row's measurement).
 */
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = option("only")?.split(",");
const noDb = process.argv.includes("--no-db");
const wants = (group: string) =>
  only
    ? only.includes(group)
    : !(
        noDb &&
        [
          "stats",
          "live",
          "live-controls",
          "projector",
          "game",
          "print-live",
          "slides-live",
          "answers",
          "xapi",
          "signin",
          "bytes",
          "editor",
          "scale",
          "pooled",
          "roster",
          "rollover",
          "roster-load",
          "city",
        ].includes(group)
      );
const groupOf = (c: Case) => (c.name.startsWith("sign-in sheets") ? "pdf" : "csv");
const rows: Row[] = [];
const say = (r: Row[]) => {
  for (const row of r) {
    console.log(consoleLine(row));
    rows.push(row);
  }
};
for (const c of cases.filter((x) => wants(groupOf(x)))) {
  await c.run();
  const times: number[] = [];
  for (let i = 0; i < c.runs; i++) {
    const t = performance.now();
    await c.run();
    times.push(performance.now() - t);
  }
  say([timingRow(c, times)]);
}
console.log(`rss after the timing cases ${Math.round(process.memoryUsage().rss / 1e6)} MB`);

/**
 * Memory of the largest print: the JS heap after a full GC, before and after
 * five more 1,000-card renders (retention would show as growth), and the
 * process's peak RSS.
 */
if (wants("pdf")) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed / 1e6;
  };
  const before = heap();
  const after: number[] = [];
  for (let i = 0; i < 5; i++) {
    await renderSigninSheets(cards, sheetTexts);
    after.push(heap());
  }
  const growth = Math.max(...after) - before;
  const peak = process.resourceUsage().maxRSS / 1024;
  say([
    {
      scenario: "memory of the largest print (1,000 cards), five more renders",
      target: "JS heap growth ≤ 50 MB (nothing retained), peak RSS < 2048 MB",
      measured: `heap after a full GC ${Math.round(before)} MB before, ${after.map((x) => Math.round(x)).join(", ")} MB after each render (growth ${Math.round(growth)} MB); peak RSS of the bench process ${Math.round(peak)} MB`,
      ratio: Math.max(growth / 50, peak / 2048),
      ok: growth <= 50 && peak < 2048,
    },
  ]);
}

/** The load scenarios against the app itself: one instance, then two behind a round-robin proxy. */
const timingCount = rows.length;
if (
  [
    "stats",
    "live",
    "live-controls",
    "projector",
    "game",
    "print-live",
    "slides-live",
    "answers",
    "xapi",
    "signin",
    "bytes",
    "editor",
    "scale",
    "pooled",
    "rollover",
    "roster-load",
  ].some(wants)
) {
  ensureBuilt();
  const fresh = async () => {
    const { url } = await benchDatabase("manabiya_bench_app");
    return { url, data: await seedBenchAcademy(url, Number(option("schools") ?? 5)) };
  };
  let { url, data } = await fresh();
  const app = await startApp(url, 1);
  try {
    if (wants("live")) say(await liveRows(app, data));
    if (wants("live-controls")) say(await liveControlRows(app, data, url));
    if (wants("projector")) say([await projectorChart(app, data)]);
    if (wants("game")) say([await gameLeaderboard(app, data)]);
    if (wants("print-live")) say([await fanoutWhilePrinting(app, data, url)]);
    if (wants("slides-live")) say([await fanoutWhileImportingSlides(app, data, url)]);
    if (wants("answers"))
      say([
        await answerBurst(app, data, url),
        await sustainedAnswers(app, data, url, 16),
        await sustainedAnswers(app, data, url, 40),
      ]);
    if (wants("xapi")) say([await answersWithXapiQueue(app, data, url)]);
    if (wants("signin")) say(await signinStorm(app, data));
    if (wants("bytes")) say(await bytesPerStudent(app, data, url));
    if (wants("editor")) say([...(await editorBytes(app, data, url)), await furiganaTiming(app, data)]);
    if (wants("stats")) say([await statsPage(app, url)]);
    if (wants("rollover")) say([await rolloverRow(app, url)]);
    if (wants("roster-load")) say([await rosterCheckBeside(app, data, url)]);
  } finally {
    await app.stop();
  }
  if (wants("scale")) {
    ({ url, data } = await fresh());
    const two = await startApp(url, 2);
    try {
      say(await liveRows(two, data, " (2 instances)", true));
      say([await answerBurst(two, data, url)].map((r) => ({ ...r, scenario: `${r.scenario} (2 instances)` })));
    } finally {
      await two.stop();
    }
  }
  if (wants("pooled")) say(await throughPgBouncer(await fresh()));
}
if (wants("city")) {
  ensureBuilt();
  say([await cityRow()]);
}
if (wants("roster")) say([await rosterImport()]);
await stopBenchPostgres();
const missed = rows.filter((r) => !r.ok);
console.log(
  `${rows.length} rows: ${rows.length - missed.length} PASS, ${missed.length} MISS${missed.length ? ` (${missed.map((r) => r.scenario).join("; ")})` : ""}; load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);

const load = os
  .loadavg()
  .map((x) => x.toFixed(1))
  .join(" ");
const run: BenchRun = {
  machine: `${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average at the end ${load})`,
  timings: rows.slice(0, timingCount),
  load: rows.slice(timingCount),
};
const runJson = `${JSON.stringify(run, null, 2)}\n`;
const jsonFile = option("json");
if (jsonFile) writeFileSync(jsonFile, runJson);
const compareWith = option("compare");
if (compareWith) {
  const changes = compareRuns(JSON.parse(readFileSync(compareWith, "utf8")) as BenchRun, run);
  console.log(
    changes.length ? `against ${compareWith}:\n${changes.join("\n")}` : `the same rows and verdicts as ${compareWith}`,
  );
}
const merge = process.argv.includes("--merge") && only;
if ((!only && !noDb) || merge) {
  const documented = () => JSON.parse(readFileSync(BENCHMARKS_JSON, "utf8")) as BenchRun;
  writeFileSync(BENCHMARKS_JSON, merge ? `${JSON.stringify(mergeRun(documented(), run, only), null, 2)}\n` : runJson);
  writeFileSync(
    BENCHMARKS_FILE,
    benchmarksMarkdown(JSON.parse(readFileSync(BENCHMARKS_JSON, "utf8")) as BenchRun, {
      notes: readFileSync(path.resolve(import.meta.dirname, "notes.md"), "utf8"),
      // `npm run lighthouse` writes its own section: kept as it is
      lighthouse: lighthouseSection(readFileSync(BENCHMARKS_FILE, "utf8")),
    }),
  );
}
process.exit(benchExitCode(rows));
