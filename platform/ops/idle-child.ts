import "server-only";
import { type ChildProcess, fork, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";

/** util-linux's `chrt`, where the machine has it. */
const CHRT = ["/usr/bin/chrt", "/bin/chrt"].find((candidate) => fs.existsSync(candidate));

/**
 * A program run at idle priority: through `chrt --idle 0` where the machine has it (the scheduler's idle
 * class: it runs only when no server thread wants the core), else `nice -n 19`. The command and its arguments.
 */
export function idleCommand(program: string, args: string[]): [string, string[]] {
  return CHRT ? [CHRT, ["--idle", "0", program, ...args]] : ["nice", ["-n", "19", program, ...args]];
}

/**
 * Starts one of the app's own child processes (plain JavaScript under lib/, which calls
 * platform/ops/lowest-priority.mjs first): V8 without background threads, so that the child is one
 * idle-priority thread and not five (Linux's scheduler, EEVDF, may run an idle-class thread for a
 * tick, 4 ms, before a woken server thread that is not yet "eligible", and a renderer's
 * garbage-collector threads took ticks in turn that way: docs/benchmarks.md), with a heap of at
 * most `heapMb` and an IPC channel ("advanced": bytes pass as bytes). Never what keeps the server
 * running: the child ends when its parent goes (it listens for "disconnect").
 */
export function forkIdleChild(
  file: string[],
  args: string[],
  options: { heapMb: number; env: NodeJS.ProcessEnv },
): ChildProcess {
  const script = [
    `--max-old-space-size=${options.heapMb}`,
    "--single-threaded",
    "--v8-pool-size=1",
    // a path known only at run time: the ignore comment keeps the build from tracing the whole project for it
    path.join(/*turbopackIgnore: true*/ process.cwd(), ...file),
    ...args,
  ];
  const spawnOptions = {
    env: options.env,
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  } as const;
  // Loaded by path at run time and never bundled: Turbopack follows a `fork(path)` or `spawn(…, [path])`
  // into the file and its tsx (esbuild) and fails on them; Reflect.apply is opaque to it. Started through
  // `chrt --idle` where it is found, so that even node's own start runs at idle priority, not only what
  // follows the child's own call to lowest-priority.mjs.
  const child = (
    CHRT
      ? Reflect.apply(spawn, undefined, [CHRT, ["--idle", "0", process.execPath, ...script], spawnOptions])
      : Reflect.apply(fork, undefined, [script[3], script.slice(4), { ...spawnOptions, execArgv: script.slice(0, 3) }])
  ) as ChildProcess;
  child.on("error", () => undefined); // a failed send or spawn: the caller's own listeners answer it
  child.unref();
  child.channel?.unref();
  return child;
}

/**
 * A file a child wrote for this process (its answer, a PDF) as a stream of 64 KB reads: opened, then
 * removed (the open file stays readable), closed when read or cancelled. What a child makes never
 * passes through this process's heap in one block (a 1.5 MB PDF received whole set off a full
 * collection of the server's heap: docs/benchmarks.md).
 */
export async function streamChildFile(file: string): Promise<ReadableStream<Uint8Array>> {
  const handle = await fs.promises.open(file, "r");
  await fs.promises.rm(file, { force: true });
  return Readable.toWeb(handle.createReadStream({ highWaterMark: 64 * 1024 })) as ReadableStream<Uint8Array>;
}
