/**
 * One format for every row of `npm run bench`, on the console and in
 * docs/benchmarks.md: the target, the measured value, the ratio (measured /
 * target, or the app against its baseline where the target is a share of a
 * baseline) and PASS or MISS. Any MISS makes the run exit non-zero.
 */
import { median } from "./http";

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

export const benchExitCode = (rows: Row[]) => (rows.some((r) => !r.ok) ? 1 : 0);
