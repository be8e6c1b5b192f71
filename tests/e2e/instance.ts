import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect } from "@playwright/test";
import { E2E_DATABASE_URL } from "./config";

/**
 * Another `next start` of the e2e build on its own port and the same
 * database (as a second instance behind a load balancer). Used by the
 * multi-instance and fault tests.
 */
export class AppInstance {
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  get url(): string {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<void> {
    const secrets = JSON.parse(readFileSync(".data/secrets.json", "utf8")) as { AUTH_SECRET: string; SIGNIN_CODE_KEY: string };
    this.child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(this.port)], {
      env: { ...process.env, NODE_ENV: "production", PORT: String(this.port), DATABASE_URL: E2E_DATABASE_URL, ...secrets, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
    });
    await expect
      .poll(async () => fetch(`${this.url}/signin`).then((r) => r.status, () => 0), { timeout: 90_000, intervals: [300] })
      .toBe(200);
  }

  /** kill -9: no shutdown, open streams and requests just break. */
  async crash(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  stop(): void {
    this.child?.kill("SIGTERM");
  }
}
