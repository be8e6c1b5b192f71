import "server-only";
import type { ChildProcess } from "node:child_process";
import { forkIdleChild } from "./idle-child";

/**
 * Programs run for the server by its one runner process (command-runner-child.mjs), started at the first and kept: the
 * server's own process forks once, not once per program (each fork of the server holds its event loop for
 * milliseconds). The runner and what it starts run at idle priority.
 */

export interface CommandOptions {
  /** the program is killed (SIGKILL) after this long */
  timeout?: number;
  /** the most it may print on stdout or stderr */
  maxBuffer?: number;
  /** its whole environment (never the server's secrets unless named) */
  env: NodeJS.ProcessEnv;
}

/** A program that ended otherwise than with 0, timed out, or could not start; what it printed on stderr. */
export class CommandFailed extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: string | number | null,
    readonly signal: string | null,
  ) {
    super(message);
  }
}

type Reply = {
  id: number;
  error: { message: string; code: string | number | null; signal: string | null } | null;
  stdout: string;
  stderr: string;
};
type Pending = { resolve: (out: { stdout: string; stderr: string }) => void; reject: (error: Error) => void };

interface Runner {
  child: ChildProcess;
  ready: Promise<void>;
  pending: Map<number, Pending>;
}

/** The runner's heap: it holds only what its programs print (at most maxBuffer each). */
const RUNNER_HEAP_MB = 96;
/**
 * What the runner is given of the server's environment, and what a program needs of it at least: where programs are
 * found, the home and temporary folders, the locale.
 */
export const PROGRAM_ENV_KEYS = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "NODE_ENV"];

const shared = globalThis as unknown as { manabiyaRunner?: Runner; manabiyaRunnerIds?: number };

/** The server's environment variables named `keys` (those it has), for a program that must not see the rest. */
export const environmentOf = (keys: string[]) =>
  Object.fromEntries(
    keys.flatMap((k) => (process.env[k] === undefined ? [] : [[k, process.env[k]]])),
  ) as NodeJS.ProcessEnv;

function startRunner(): Runner {
  const env = environmentOf(PROGRAM_ENV_KEYS);
  const child = forkIdleChild(["platform", "ops", "command-runner-child.mjs"], [], { heapMb: RUNNER_HEAP_MB, env });
  const pending = new Map<number, Pending>();
  const ready = new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", () => reject(new Error("the command runner ended before it was ready")));
  });
  child.on("message", (message: Reply | { ready: true }) => {
    if (!("id" in message)) return;
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    const { error, stdout, stderr } = message;
    if (!waiting) return;
    if (error) waiting.reject(new CommandFailed(error.message, stderr, error.code, error.signal));
    else waiting.resolve({ stdout, stderr });
  });
  child.once("exit", (code) => {
    if (shared.manabiyaRunner?.child === child) shared.manabiyaRunner = undefined;
    for (const waiting of pending.values()) waiting.reject(new Error(`the command runner ended (${code})`));
    pending.clear();
  });
  return { child, ready, pending };
}

/**
 * Runs `command` with `args` in the runner: `done` resolves with what it printed once it ends with 0, and rejects
 * with CommandFailed otherwise (or an Error when the runner itself ended); `kill` ends it at once.
 */
export function runCommand(command: string, args: string[], options: CommandOptions) {
  const runner = (shared.manabiyaRunner ??= startRunner());
  const id = (shared.manabiyaRunnerIds = (shared.manabiyaRunnerIds ?? 0) + 1);
  /** not yet sent: true once sent, "killed" when killed before */
  let sent: boolean | "killed" = false;
  const done = new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    runner.pending.set(id, { resolve, reject });
    const fail = (error: Error) => (runner.pending.delete(id), reject(error));
    runner.ready.then(
      () => {
        if (sent === "killed") return fail(new CommandFailed("killed before it started", "", null, "SIGKILL"));
        sent = true;
        runner.child.send({ id, command, args, options });
      },
      (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
    );
  });
  const kill = () => {
    if (sent === false) sent = "killed";
    else if (sent === true && runner.pending.has(id) && runner.child.connected) runner.child.send({ kill: id });
  };
  return { done, kill };
}
