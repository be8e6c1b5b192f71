import { spawn } from "node:child_process";
import { TEST_SIGNIN_CODE_KEY } from "./helpers";

export const PUBLIC_URL = "https://manabiya.example.jp";

/**
 * `npm run admin -- …` as an IT office runs it: production settings, this database, standard input given;
 * `env`: more of its environment (DATABASE_DIRECT_URL).
 */
export function runAdmin(databaseUrl: string, args: string[], stdin?: string, env: Record<string, string> = {}) {
  return runScript("tools/cli/admin.ts", databaseUrl, args, stdin, env);
}

/** A command-line tool of package.json (admin, roster, scripts/db.ts) run the way its npm script runs it. */
export function runScript(
  script: string,
  databaseUrl: string,
  args: string[],
  stdin?: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", script, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      MANABIYA_ENV_FILE: "",
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: "s".repeat(40),
      SIGNIN_CODE_KEY: TEST_SIGNIN_CODE_KEY,
      AUTH_URL: PUBLIC_URL,
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  child.stdin.end(stdin ?? "");
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out, err })));
}
