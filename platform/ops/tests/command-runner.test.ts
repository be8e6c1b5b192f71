/**
 * The server's command runner (platform/ops/command-runner.ts) as its callers meet it: what a program printed, a
 * program past its timeout or killed ended at once (a hostile PDF), and the runner itself ended (killed, out of
 * memory): what it was running fails as a runner failure, not as the program's, and the next command starts a new one.
 */
import { afterAll, describe, expect, it } from "vitest";
import { CommandFailed, environmentOf, runCommand } from "@/platform/ops/command-runner";
import { childPid, descendants } from "../../../tests/support/child-processes";
import { until } from "../../../tests/support/live-stream";

const env = environmentOf(["PATH"]);
const runnerPid = () => childPid("command-runner-child.mjs");

/** Whether a `sleep` of `seconds` runs under the runner now. */
const sleeping = (seconds: number) =>
  descendants().some((p) => p.ppid === runnerPid() && p.cmdline.split("\0").join(" ").includes(`sleep ${seconds}`));

afterAll(() => {
  const runner = runnerPid();
  if (runner) process.kill(runner, "SIGKILL");
});

describe("the command runner", () => {
  it("answers with what a program printed, and a program that ends otherwise than with 0 as CommandFailed with its stderr", async () => {
    expect(await runCommand("printf", ["%s", "くも"], { env }).done).toEqual({ stdout: "くも", stderr: "" });
    const failed = await runCommand("sh", ["-c", "echo no >&2; exit 3"], { env }).done.catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CommandFailed);
    expect(failed).toMatchObject({ code: 3, stderr: "no\n" });
  });

  it("kills a program past its timeout, and one it is told to kill, at once", async () => {
    let started = Date.now();
    const late = await runCommand("sleep", ["31"], { env, timeout: 300 }).done.catch((e: unknown) => e);
    expect(late).toBeInstanceOf(CommandFailed);
    expect(late).toMatchObject({ signal: "SIGKILL" });
    expect(Date.now() - started).toBeLessThan(10_000);

    const running = runCommand("sleep", ["32"], { env });
    await until(() => sleeping(32), "sleep 32 runs");
    started = Date.now();
    running.kill();
    const killed = await running.done.catch((e: unknown) => e);
    expect(killed).toBeInstanceOf(CommandFailed);
    expect(killed).toMatchObject({ signal: "SIGKILL" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(sleeping(32)).toBe(false);
  });

  it("the runner ended: what it ran fails as the runner's failure (not CommandFailed), and the next command starts a new runner", async () => {
    const running = runCommand("sleep", ["33"], { env });
    await until(() => sleeping(33), "sleep 33 runs");
    const first = runnerPid()!;
    process.kill(first, "SIGKILL");
    const ended = await running.done.catch((e: unknown) => e);
    expect(ended).toBeInstanceOf(Error);
    expect(ended).not.toBeInstanceOf(CommandFailed);
    expect(await runCommand("printf", ["again"], { env }).done).toMatchObject({ stdout: "again" });
    expect(runnerPid()).not.toBe(first);
  });
});
