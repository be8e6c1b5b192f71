import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

/** A Debian package's binary at `debianPath` (often not on a user's PATH), else `name` on PATH; `missing` says what to install. */
export function debianBinary(debianPath: string, name: string, missing: string): string {
  if (existsSync(debianPath)) return debianPath;
  try {
    return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(missing);
  }
}

/** The child of this process whose command line names `file`, if one runs (Linux's /proc). */
export function childPid(file: string): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(file)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Each thread's scheduling policy (5: SCHED_IDLE) and nice value. */
export function threadPriorities(pid: number): { policy: number; nice: number }[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const sched = readFileSync(`/proc/${pid}/task/${tid}/sched`, "utf8");
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    return {
      policy: Number(/^policy\s*:\s*(\d+)/m.exec(sched)?.[1]),
      nice: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]),
    };
  });
}
