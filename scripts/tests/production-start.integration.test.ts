import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/platform/auth/password";
import { runSeed } from "../../prisma/seed/run";
import { demoPasswordAccounts, productionConfigProblems } from "../lib/production-checks";
import { freshDatabase, TEST_SIGNIN_CODE_KEY } from "../../tests/support/helpers";

/**
 * `NODE_ENV=production npm start` as an IT office runs it: whatever is missing,
 * it stops at once with a message naming it, and it never falls back to the
 * embedded database or the demo school (docs/architecture.md "Start-up").
 */
const scratch = mkdtempSync(path.join(tmpdir(), "manabiya-prod-start-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SECRETS = {
  AUTH_SECRET: "s".repeat(40),
  SIGNIN_CODE_KEY: TEST_SIGNIN_CODE_KEY,
  AUTH_URL: "https://manabiya.example.jp",
};

/** scripts/start.ts with exactly this environment (no developer secrets, no embedded-database defaults). */
function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      MANABIYA_ENV_FILE: "",
      NODE_ENV: "production",
      PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: a start that went on is killed with everything it spawned
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => {
    // a start that goes on (to a database, a build, a server) instead of refusing is stopped here: the test then fails on its output
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("a production start", () => {
  it("without DATABASE_URL, AUTH_SECRET, SIGNIN_CODE_KEY and AUTH_URL exits at once naming each, and never starts the embedded database", async () => {
    const pgDir = path.join(scratch, "pg");
    const { code, output } = await start({ MANABIYA_PG_DIR: pgDir, EMBEDDED_PG_PORT: "25499" });
    expect(code).toBe(1);
    for (const name of ["DATABASE_URL", "AUTH_SECRET", "SIGNIN_CODE_KEY", "AUTH_URL"]) expect(output).toContain(name);
    expect(existsSync(pgDir)).toBe(false);
  }, 90_000);

  it("reads the settings file (quoted values keep # and @), and a variable set in the environment wins over it", async () => {
    const file = path.join(scratch, "settings.env");
    writeFileSync(
      file,
      [
        "# the IT office's settings",
        `AUTH_SECRET="p@ss#word-with:special/chars-and-more-than-32"`,
        `SIGNIN_CODE_KEY=${TEST_SIGNIN_CODE_KEY}`,
        "AUTH_URL=not a url",
      ].join("\n"),
    );
    const { code, output } = await start({
      MANABIYA_ENV_FILE: file,
      AUTH_URL: "https://manabiya.example.jp",
      MANABIYA_PG_DIR: path.join(scratch, "pg2"),
    });
    expect(code).toBe(1);
    // only what neither gave is missing: the secrets came from the file, the address from the environment
    expect(output).toContain("DATABASE_URL");
    for (const name of ["AUTH_SECRET", "SIGNIN_CODE_KEY", "AUTH_URL:"]) expect(output).not.toContain(name);
  }, 90_000);

  it("refuses SEED_DEMO, and lists nothing when every setting is there", () => {
    const full = { ...SECRETS, DATABASE_URL: "postgresql://u:p@db.example.jp:5432/manabiya" };
    expect(productionConfigProblems(full)).toEqual([]);
    expect(productionConfigProblems({ ...full, SEED_DEMO: "1" })).toEqual([expect.stringContaining("SEED_DEMO")]);
    expect(productionConfigProblems({ ...full, AUTH_SECRET: "short" })).toEqual([
      expect.stringContaining("AUTH_SECRET"),
    ]);
  });

  it("refuses an AUTH_URL with a path or a trailing slash (compose's proxy would serve that path alone)", () => {
    const full = { ...SECRETS, DATABASE_URL: "postgresql://u:p@db.example.jp:5432/manabiya" };
    for (const url of [
      "https://manabiya.school.example.jp/",
      "https://manabiya.school.example.jp/app",
      "https://manabiya.school.example.jp?x=1",
    ]) {
      expect(productionConfigProblems({ ...full, AUTH_URL: url }), url).toEqual([expect.stringContaining("AUTH_URL")]);
    }
    expect(productionConfigProblems({ ...full, AUTH_URL: "https://manabiya.school.example.jp:8443" })).toEqual([]);
  });

  describe("on a database that still holds the demo school", () => {
    const db = freshDatabase("prod_demo");

    it("refuses to serve while a demo account has the published password, and names the accounts", async () => {
      await runSeed({ demo: true, databaseUrl: db.url, log: () => undefined });
      const { code, output } = await start({ ...SECRETS, DATABASE_URL: db.url });
      expect(code).toBe(1);
      expect(output).toContain("manager@example.com");
      expect(output).not.toContain("Manabiya: http");
    }, 180_000);

    it("lets it go once every demo account's password was changed", async () => {
      const changed = await hashPassword("a-new-long-password-2026");
      await db.prisma.user.updateMany({
        where: { email: { endsWith: "@example.com" } },
        data: { passwordHash: changed },
      });
      expect(await demoPasswordAccounts(db.url)).toEqual([]);
    });
  });
});
