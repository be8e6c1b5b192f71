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

/** Every process running now with its parent and command line (Linux's /proc). */
function processes(): { pid: number; ppid: number; cmdline: string }[] {
  const all: { pid: number; ppid: number; cmdline: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      all.push({ pid: Number(entry), ppid, cmdline: readFileSync(`/proc/${entry}/cmdline`, "utf8") });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** The child of this process whose command line names `file`, if one runs. */
export function childPid(file: string): number | undefined {
  return processes().find((p) => p.ppid === process.pid && p.cmdline.includes(file))?.pid;
}

/** This process's descendants running now, children and theirs: each one's pid, parent and command line (NUL-separated). */
export function descendants(): { pid: number; ppid: number; cmdline: string }[] {
  const all = processes();
  const found: typeof all = [];
  const parents = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
  }
  return found;
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
