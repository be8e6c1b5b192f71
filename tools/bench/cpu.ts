/** Who used the cores during a scenario (Linux /proc): the app, PostgreSQL and the load client. */
import { readdirSync, readFileSync } from "node:fs";
import { BENCH_PG_DIR, type RunningApp } from "./app";

/** CPU ticks (user + system) used so far by each process `pick` selects, from /proc (Linux). */
function cpuTicks(pick: (pid: number, comm: string, ppid: number) => boolean): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (!pick(Number(entry), comm, Number(fields[1]))) continue; // fields[1]: the parent's pid
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

/** CPU seconds (user + system) the processes `pids` have used so far. */
export function cpuSecondsOf(pids: number[]): number {
  const wanted = new Set(pids);
  let ticks = 0;
  for (const t of cpuTicks((pid) => wanted.has(pid)).values()) ticks += t;
  return ticks / 100; // USER_HZ
}

/** Who used the cores during `work`: the app, PostgreSQL, the load client (this process), as shares of one core. */
export async function cpuSplit<T>(app: RunningApp, work: () => Promise<T>): Promise<{ result: T; split: string }> {
  const appPids = new Set(app.pids);
  // the bench cluster's postmaster and its backends only, not other PostgreSQL servers on the machine
  const postmaster = Number(readFileSync(`${BENCH_PG_DIR}/postmaster.pid`, "utf8").split("\n")[0]);
  const measure = () => ({
    app: cpuTicks((pid) => appPids.has(pid)),
    pg: cpuTicks((pid, comm, ppid) => comm === "postgres" && (pid === postmaster || ppid === postmaster)),
    client: process.cpuUsage(),
    at: performance.now(),
  });
  const before = measure();
  const result = await work();
  const after = measure();
  const wall = (after.at - before.at) / 1000;
  const clientS = (after.client.user - before.client.user + after.client.system - before.client.system) / 1e6;
  const pct = (s: number) => `${Math.round((s / wall) * 100)} %`;
  return {
    result,
    split: `CPU: app ${pct(cpuBetween(before.app, after.app))}, PostgreSQL ${pct(cpuBetween(before.pg, after.pg))}, load client ${pct(clientS)} of one core`,
  };
}
