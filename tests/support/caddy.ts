import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { portOpen } from "../../scripts/lib/port-open";
import { debianBinary } from "./child-processes";

/**
 * Debian's Caddy (the `caddy` package, 2.6 on Debian 12) run with the project's own deploy/Caddyfile, as an operator
 * runs it without Docker: `caddy run --config deploy/Caddyfile --adapter caddyfile` with the site address and the
 * app instances in its environment. Plain http (an http:// site address takes no certificate), its state in a
 * temporary folder, its admin endpoint on a port of the test's.
 */
export interface RunningCaddy {
  url: string;
  /** What Caddy wrote (its JSON log), for a failure's message. */
  output: string[];
  stop(): Promise<void>;
}

const INSTALL = "Caddy is missing: install Debian's caddy (apt-get install caddy; .ci/run does it).";

/** Starts Caddy on 127.0.0.1:`port` in front of `upstreams` (host:port each), round robin, with deploy/Caddyfile. */
export async function startCaddy(port: number, adminPort: number, upstreams: string[]): Promise<RunningCaddy> {
  const binary = debianBinary("/usr/bin/caddy", "caddy", INSTALL);
  for (const p of [port, adminPort])
    if (await portOpen(p))
      throw new Error(`Port ${p} is taken: Caddy for the tests listens on the ports tests/e2e/proxy.spec.ts gives it.`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "manabiya-caddy-"));
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child: ChildProcess = spawn(binary, ["run", "--config", "deploy/Caddyfile", "--adapter", "caddyfile"], {
    env: {
      ...process.env,
      HOME: dir,
      XDG_DATA_HOME: dir,
      XDG_CONFIG_HOME: dir,
      SITE_ADDRESS: url,
      MANABIYA_UPSTREAMS: `to ${upstreams.join(" ")}`,
      CADDY_ADMIN: `127.0.0.1:${adminPort}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let i = 0; !(await portOpen(port)); i++) {
    if (child.exitCode !== null || i > 200) {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`Caddy did not start on port ${port}:\n${output.join("").slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // a graceful stop waits for open streams: give it a moment, then end it
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
