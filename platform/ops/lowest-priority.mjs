/**
 * For a child process of the app's own that must never slow the process serving lessons (the
 * sign-in sheet renderer, a roster upload's work): every thread of the calling process at the
 * lowest CPU priority, the JavaScript thread and the garbage collector's and libuv's alike
 * (threads started later inherit it). On Linux the threads are put in the SCHED_IDLE class
 * (util-linux's `chrt`): a nice value alone is a smaller share, but the kernel's scheduler still
 * lets a niced thread finish its time slice before a woken event loop runs, a few milliseconds at
 * every step of a live event (docs/benchmarks.md). A nice value too, where `chrt` is missing;
 * elsewhere, the process's priority if the platform allows it. Call it at start and again after
 * loading modules (any thread started meanwhile). Plain JavaScript, loaded by path at run time.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";

export function lowestPriority() {
  let threads = [];
  try {
    threads = fs.readdirSync("/proc/self/task").map(Number);
  } catch {
    // no /proc: the process (or its main thread) only
  }
  for (const tid of threads.length > 0 ? threads : [0]) {
    try {
      os.setPriority(tid, 19);
    } catch {
      // not permitted here: that thread keeps its priority
    }
  }
  if (threads.length > 0) {
    try {
      execFileSync("chrt", ["--idle", "--all-tasks", "--pid", "0", String(process.pid)], {
        stdio: "ignore",
        timeout: 5_000,
      });
    } catch {
      // no chrt (or not permitted): the nice value above
    }
  }
}
