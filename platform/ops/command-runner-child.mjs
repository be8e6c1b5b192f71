/**
 * The app's one process that starts programs for the server (platform/ops/command-runner.ts): a small Node process,
 * started once by the server's, that runs each program it is asked to (execFile: the command, its arguments, a
 * timeout, an environment) and answers with what it printed, or kills it when told. Starting a program from the
 * server's own process holds its event loop while the kernel copies the process's page tables (about 10 ms for the
 * server's hundreds of MB, twice per PDF brought in: docs/benchmarks.md); from this one it costs the server nothing.
 * Every thread of it, and so every program it starts, at the lowest CPU priority (lowest-priority.mjs). It ends when
 * its parent goes. Plain JavaScript, loaded by path at run time.
 */
import { execFile } from "node:child_process";
import { lowestPriority } from "./lowest-priority.mjs";

lowestPriority();
process.on("disconnect", () => process.exit(0));

/** the programs running, by the request's id */
const running = new Map();

process.on("message", (message) => {
  if (message.kill !== undefined) return void running.get(message.kill)?.kill("SIGKILL");
  const { id, command, args, options } = message;
  const child = execFile(command, args, { ...options, killSignal: "SIGKILL" }, (error, stdout, stderr) => {
    running.delete(id);
    const failed = error && { message: error.message, code: error.code ?? null, signal: error.signal ?? null };
    process.send?.({ id, error: failed || null, stdout: String(stdout), stderr: String(stderr) });
  });
  running.set(id, child);
});
process.send?.({ ready: true });
