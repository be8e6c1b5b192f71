/**
 * `npm start` / `npm run dev`: PostgreSQL (embedded unless DATABASE_URL is
 * set) → migrations → seed → build when the sources changed → the
 * production server, server/main.ts (or next dev). Ctrl-C stops the web
 * server and PostgreSQL cleanly.
 */
import "./lib/env-file"; // first: the settings file, before anything reads the environment
import { type ChildProcess, spawn } from "node:child_process";
import { EnvError, parseEnv } from "@/platform/env";
import { createLogger, errorField, log } from "@/platform/ops/log";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../prisma/seed/demo";
import { runSeed } from "../prisma/seed/run";
import { buildIsCurrent } from "./lib/build-hash";
import { migrate } from "./lib/migrate";
import { prepareDatabase, ROOT } from "./lib/prepare-db";
import { demoPasswordAccounts, productionConfigProblems } from "./lib/production-checks";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const nextBin = `${ROOT}/node_modules/next/dist/bin/next`;
const TSX = `${ROOT}/node_modules/tsx/dist/cli.mjs`;

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [nextBin, ...args], { cwd: ROOT, env, stdio: "inherit" });
}

function waitExit(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** NODE_ENV=production set by the operator (a developer's `npm start` leaves it unset). */
const production = process.env.NODE_ENV === "production";

/**
 * What the start itself says goes to the same JSON log as the server's
 * (platform/ops/log.ts), so a log collector sees only JSON lines; a LOG_LEVEL too
 * bad to build the logger still gets its refusal written. Only a developer's
 * banner (the address, the demo accounts) stays plain text, outside production.
 */
const startLog = () => {
  try {
    return log();
  } catch {
    return createLogger("info");
  }
};

function refuse(problems: string[]): never {
  startLog().error(
    { event: "start.refused", problems },
    `Manabiya cannot start in production:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
  );
  process.exit(1);
}

async function main() {
  if (production) {
    // before anything starts: never the embedded database, never the demo school
    const problems = productionConfigProblems(process.env);
    if (problems.length > 0) refuse(problems);
  }
  const db = await prepareDatabase();
  let server: ChildProcess | null = null;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await Promise.race([waitExit(server), new Promise((r) => setTimeout(r, 12_000))]); // its own shutdown takes up to 10 s
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    if (db.embedded?.startedHere) await db.embedded.stop().catch(() => undefined);
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  try {
    // `npm start` serves in production (server/main.ts), so its rules apply from the start (AUTH_URL…)
    parseEnv({ ...process.env, NODE_ENV: process.env.NODE_ENV ?? (dev ? "development" : "production") });
  } catch (error) {
    if (error instanceof EnvError) {
      startLog().error({ event: "start.refused", problems: error.problems }, error.message);
      return stop(1);
    }
    throw error;
  }

  // the migrations' lock is a session's: the direct connection, not a transaction pooler (docs/scaling.md)
  const migrated = await migrate(db.directUrl);
  log().info(
    { event: "migrations", applied: migrated.applied.length, alreadyApplied: migrated.alreadyApplied },
    "database migrated",
  );
  if (production) {
    const demo = await demoPasswordAccounts(db.databaseUrl);
    if (demo.length > 0) {
      refuse([
        `demo accounts still sign in with the published demo password: ${demo.join(", ")} (delete them or change their passwords)`,
      ]);
    }
  }
  await runSeed({ demo: db.seedDemo, databaseUrl: db.databaseUrl, log: (m) => log().info({ event: "seed" }, m) });

  // demo mode (the demo school's accounts; platform/mail/demo-mailbox.ts): decided here, never by the operator's environment
  const env = { ...process.env, PORT: String(port), MANABIYA_DEMO: db.seedDemo ? "1" : "0" };
  if (!dev && !buildIsCurrent(ROOT)) {
    log().info({ event: "build" }, "building the app (next build)");
    const build = spawn(process.execPath, [TSX, "scripts/build.ts"], {
      cwd: ROOT,
      env,
      stdio: "inherit",
    });
    const code = await waitExit(build);
    if (code !== 0) return stop(code);
  }
  // production: Next.js inside server/main.ts (it answers POST /api/v1/answers itself)
  server = dev
    ? run(["dev", "-p", String(port)], env)
    : spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: ROOT, env, stdio: "inherit" });
  server.once("exit", (code) => void stop(code ?? 0));

  if (production) return;
  console.log(`\nManabiya: http://localhost:${port}`);
  if (db.seedDemo) {
    console.log(`demo accounts (password: ${DEMO_PASSWORD}):`);
    for (const [role, email] of Object.entries(DEMO_ACCOUNTS)) console.log(`  ${role.padEnd(9)} ${email}`);
  }
}

main().catch((error: unknown) => {
  startLog().error(
    { event: "start.failed", ...errorField(error) },
    error instanceof Error ? error.message : String(error),
  );
  process.exit(1);
});
