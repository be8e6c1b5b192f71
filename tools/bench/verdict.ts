/**
 * One format for every row of `npm run bench`, on the console and in
 * docs/benchmarks.md: the target, the measured value, the ratio (measured /
 * target, or the app against its baseline where the target is a share of a
 * baseline) and PASS or MISS. Any MISS makes the run exit non-zero.
 */
import { median, percentile } from "./http";

export interface Row {
  scenario: string;
  measured: string;
  target: string;
  ok: boolean;
  /** measured / target (≤ 1 passes a limit), or app / baseline where the target is a share of a baseline; absent: printed as "—" */
  ratio?: number;
  note?: string;
}

export const REPORT_HEADER = "| scenario | target | measured | ratio | result |\n|---|---|---|---|---|";

export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return "—";
  return ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2);
}

export const verdict = (ok: boolean) => (ok ? "PASS" : "MISS");

export function consoleLine(row: Row): string {
  return `${verdict(row.ok)} ${row.scenario}: target ${row.target}; measured ${row.measured}; ratio ${formatRatio(row.ratio)}`;
}

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

export function tableLine(row: Row): string {
  return `| ${cell(row.scenario)} | ${cell(row.target)} | ${cell(row.measured)} | ${formatRatio(row.ratio)} | ${row.ok ? "PASS" : "**MISS**"} |`;
}

/** A timed case judged on the median of its runs against `limitMs`. */
export function timingRow(c: { name: string; target: string; limitMs: number }, times: number[]): Row {
  const m = median(times);
  const r = (x: number) => Math.round(x);
  return {
    scenario: c.name,
    target: `median ≤ ${c.limitMs} ms: ${c.target}`,
    measured: `median ${r(m)} ms (min ${r(Math.min(...times))}, max ${r(Math.max(...times))}, n=${times.length})`,
    ratio: m / c.limitMs,
    ok: m <= c.limitMs,
  };
}

/**
 * A control reaching its receivers (`--only=live-controls`): every delivery's latency from the
 * teacher's request leaving; p99 under `limitMs`, none missed. `extra` goes to the measured text.
 */
export function deliveryRow(
  scenario: string,
  limitMs: number,
  latencies: number[],
  missed: number,
  extra = "",
  counted = "deliveries",
): Row {
  const p99 = percentile(latencies, 99);
  const r = (x: number) => Math.round(x);
  return {
    scenario,
    target: `p99 < ${limitMs} ms, none missed`,
    measured: `p99 ${r(p99)} ms (median ${r(median(latencies))}, max ${r(Math.max(...latencies))}; ${latencies.length} ${counted}, missed ${missed})${extra ? `; ${extra}` : ""}`,
    ratio: p99 / limitMs,
    ok: latencies.length > 0 && p99 < limitMs && missed === 0,
  };
}

/**
 * Per control pressed (a round), the time until EVERY receiver it must reach had seen it: the
 * latest of its receivers' latencies (`undefined`: that receiver never saw it). A round some
 * receiver missed is missed, not timed.
 */
export function untilEveryReceiver(rounds: (number | undefined)[][]): { times: number[]; missed: number } {
  const times: number[] = [];
  let missed = 0;
  for (const latencies of rounds) {
    if (latencies.length === 0 || latencies.some((x) => x === undefined)) missed++;
    else times.push(Math.max(...(latencies as number[])));
  }
  return { times, missed };
}

/**
 * The teacher's grid in the browser: each update's time (event arrived to DOM committed and laid
 * out) with p99 under `frameMs`, every update rendered, at least `minUpdates` measured, and no long
 * animation frame during an update (a dropped frame the browser itself reports).
 */
export function gridRenderRow(
  scenario: string,
  frameMs: number,
  m: {
    times: number[];
    unrendered: number;
    minUpdates: number;
    frames: { counted: number; dropped: number; long: number };
  },
  extra = "",
): Row {
  const p99 = percentile(m.times, 99);
  const f = (x: number) => x.toFixed(1);
  return {
    scenario,
    target: `p99 < ${frameMs} ms per update (event arrived → DOM committed and laid out), every update rendered, no long animation frame during an update`,
    measured:
      `p99 ${f(p99)} ms (median ${f(median(m.times))}, max ${f(Math.max(...m.times))}; ${m.times.length} updates, ${m.unrendered} not rendered); ` +
      `frames over ${f(frameMs * 1.5)} ms during updates ${m.frames.dropped} of ${m.frames.counted}, long animation frames ${m.frames.long}${extra ? `; ${extra}` : ""}`,
    ratio: p99 / frameMs,
    ok: m.times.length >= m.minUpdates && m.unrendered === 0 && p99 < frameMs && m.frames.long === 0,
  };
}

export const benchExitCode = (rows: Row[]) => (rows.some((r) => !r.ok) ? 1 : 0);

/** What one run of `npm run bench` measured (docs/benchmarks.json for a full run; `--json=FILE` for any run). */
export interface BenchRun {
  /** the day, the machine and its load at the end, as the report's first line says them */
  machine: string;
  timings: Row[];
  load: Row[];
  /** parts re-run later with `--only=… --merge`, oldest first: each row keeps the mark of the newest that measured it */
  reruns?: Rerun[];
}

export interface Rerun {
  machine: string;
  only: string;
  scenarios: string[];
}

const replaceRows = (rows: Row[], fresh: Map<string, Row>) => rows.map((r) => fresh.get(r.scenario) ?? r);

/**
 * The documented run with a part re-run (`groups`, as `--only` named them): each row the part measured
 * replaces the row of the same scenario where it stands; a row the documented run lacks goes after its
 * table's last row. The header keeps the full run's machine; `reruns` says which rows came later.
 */
export function mergeRun(base: BenchRun, part: BenchRun, groups: string[]): BenchRun {
  const fresh = new Map([...part.timings, ...part.load].map((r) => [r.scenario, r]));
  const known = new Set([...base.timings, ...base.load].map((r) => r.scenario));
  const added = (rows: Row[]) => rows.filter((r) => !known.has(r.scenario));
  const earlier = (base.reruns ?? [])
    .map((r) => ({ ...r, scenarios: r.scenarios.filter((s) => !fresh.has(s)) }))
    .filter((r) => r.scenarios.length > 0);
  return {
    machine: base.machine,
    timings: [...replaceRows(base.timings, fresh), ...added(part.timings)],
    load: [...replaceRows(base.load, fresh), ...added(part.load)],
    reruns: [...earlier, { machine: part.machine, only: groups.join(","), scenarios: [...fresh.keys()] }],
  };
}

const MARKS = ["¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"];

/** The rows' lines, a re-run row's scenario marked with its re-run's number. */
function tableLines(rows: Row[], reruns: Rerun[]): string {
  const markOf = (scenario: string) => {
    const i = reruns.findIndex((r) => r.scenarios.includes(scenario));
    return i < 0 ? "" : ` ${MARKS[i] ?? `(${i + 1})`}`;
  };
  return rows.map((r) => tableLine({ ...r, scenario: r.scenario + markOf(r.scenario) })).join("\n");
}

const rerunLines = (reruns: Rerun[]) =>
  reruns
    .map(
      (r, i) =>
        `- ${MARKS[i] ?? `(${i + 1})`} re-run alone by \`npm run bench -- --only=${r.only} --merge\` on ${r.machine}.\n`,
    )
    .join("");

/** docs/benchmarks.md from a run: both tables in the console's columns, then the notes and the kept Lighthouse section. */
export function benchmarksMarkdown(run: BenchRun, parts: { notes: string; lighthouse: string }): string {
  return (
    `# Benchmarks\n\nWritten by \`npm run bench\` on ${run.machine} (the rows as data: docs/benchmarks.json).\n` +
    (run.reruns?.length
      ? `Marked rows were measured later; the others are from that run:\n\n${rerunLines(run.reruns)}\n`
      : "") +
    "Everything runs on this one machine: the app (production build), its embedded PostgreSQL and the load clients share the cores, so the load numbers include the clients' own work.\n\n" +
    "Every row: the target, the measured value, the ratio (measured / target; where the target is a share of a baseline measured in the same run, the app's rate / the baseline's) and PASS or MISS. `npm run bench` exits non-zero on any MISS; a missed target stays in the table as measured.\n\n" +
    "## Timings\n\nTimes in ms: the median of n runs after a warm-up, and the spread (min–max); targets are judged on the median.\n\n" +
    `${REPORT_HEADER}\n${tableLines(run.timings, run.reruns ?? [])}\n\n` +
    "## Load scenarios\n\nA generated academy: 5 schools × 10 classes × 40 students (2,000), a teacher and a guide activity per class, a solo activity per school (the science template's five scenes, then a fill-in-the-blanks and a number scene); for the statistics page a sixth school of 1,000 students who answered a 20-scene activity. " +
    "Latency is measured by the load client from the moment its request leaves to the moment the answer (or the stream's event, or the page's last byte) arrives. p99 over all deliveries.\n\n" +
    `${REPORT_HEADER}\n${tableLines(run.load, run.reruns ?? [])}\n\n` +
    parts.notes +
    (parts.lighthouse ? `\n${parts.lighthouse}` : "")
  );
}

/**
 * How a run differs from an earlier one: a row whose verdict changed (PASS ↔ MISS), a row only one of them
 * has. Rows are matched by scenario; an empty list says the same rows gave the same verdicts.
 */
export function compareRuns(before: BenchRun, after: BenchRun): string[] {
  const rowsOf = (run: BenchRun) => new Map([...run.timings, ...run.load].map((r) => [r.scenario, r]));
  const [a, b] = [rowsOf(before), rowsOf(after)];
  const changes: string[] = [];
  for (const [scenario, row] of a) {
    const now = b.get(scenario);
    if (!now) changes.push(`only before: ${scenario}`);
    else if (now.ok !== row.ok) changes.push(`${verdict(row.ok)} → ${verdict(now.ok)}: ${scenario}`);
  }
  for (const scenario of b.keys()) if (!a.has(scenario)) changes.push(`only now: ${scenario}`);
  return changes;
}
