import "server-only";
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";

/**
 * Starts one of the app's own child processes (plain JavaScript under lib/, which calls
 * lib/ops/lowest-priority.mjs first): V8 without background threads, so that the child is one
 * idle-priority thread and not five (Linux's scheduler, EEVDF, may run an idle-class thread for a
 * tick, 4 ms, before a woken server thread that is not yet "eligible", and a renderer's
 * garbage-collector threads took ticks in turn that way: docs/benchmarks.md), with a heap of at
 * most `heapMb` and an IPC channel ("advanced": bytes pass as bytes). Never what keeps the server
 * running: the child ends when its parent goes (it listens for "disconnect").
 */
export function forkIdleChild(file: string[], args: string[], options: { heapMb: number; env: NodeJS.ProcessEnv }): ChildProcess {
  // Loaded by path at run time and never bundled: Turbopack follows a `fork(path)` or `new Worker(path)`
  // into the file and its tsx (esbuild) and fails on them; Reflect.apply is opaque to it.
  const child = Reflect.apply(fork, undefined, [
    path.join(process.cwd(), ...file),
    args,
    {
      execArgv: [`--max-old-space-size=${options.heapMb}`, "--single-threaded", "--v8-pool-size=1"],
      env: options.env,
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    },
  ]) as ChildProcess;
  child.on("error", () => undefined); // a failed send or spawn: the caller's own listeners answer it
  child.unref();
  child.channel?.unref();
  return child;
}
