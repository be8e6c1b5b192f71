import { defineConfig, devices } from "@playwright/test";
import {
  AUTH_DIR,
  BASE_URL,
  E2E_CHROMIUM,
  E2E_DB_NAME,
  E2E_METRICS_TOKEN,
  E2E_PG_PORT,
  E2E_PORT,
  E2E_SMTP_PORT,
  ENTRA_CLIENT,
  OIDC_CLIENT,
  ENTRA_ISSUER,
  OIDC_ISSUER,
} from "./tests/e2e/config";
import { ensureOidcTls } from "./tests/e2e/oidc-tls";

/**
 * End-to-end tests in Debian's Chromium against a production build
 * (server/main.ts, as `npm start` runs it) on its own port and its own database (fresh every run).
 */
/** The e2e files that upload OneRoster sets (project "roster-uploads"). */
const ROSTER_UPLOADS = /tests\/e2e\/(roster|rollover)\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // generous: CI's two cores are shared, and argon2, axe and PDF work slow down under load
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: BASE_URL,
    locale: "ja-JP",
    timezoneId: "Asia/Tokyo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: E2E_CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    {
      name: "chromium",
      use: { ...devices["Desktop Chrome"] },
      dependencies: ["setup"],
      testIgnore: [/.*\.setup\.ts/, ROSTER_UPLOADS],
    },
    // the server reads one OneRoster set at a time (another upload is answered "busy", features/rostering/server/route.ts): the files
    // that upload sets (the roster page, the rollover with next year's set) run one at a time, beside the rest
    {
      name: "roster-uploads",
      testMatch: ROSTER_UPLOADS,
      use: { ...devices["Desktop Chrome"] },
      dependencies: ["setup"],
      workers: 1,
    },
    // tests/attacks: each class of attack of docs/security.md replayed against the real server
    { name: "attacks", testDir: "tests/attacks", use: { ...devices["Desktop Chrome"] }, dependencies: ["setup"] },
  ],
  webServer: {
    command: "npx tsx scripts/start.ts",
    url: `${BASE_URL}/signin`,
    // the start builds the app when the sources changed (scripts/start.ts): a production build on two busy cores takes
    // several minutes, so the wait is long; a server that fails to start exits, which ends the wait at once
    timeout: 900_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(E2E_PORT),
      EMBEDDED_PG_PORT: String(E2E_PG_PORT),
      MANABIYA_PG_DIR: ".data/pg-e2e",
      MANABIYA_DB_NAME: E2E_DB_NAME,
      MANABIYA_FRESH_DB: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      MANABIYA_ENV_FILE: "", // never a developer's .env: the run has its own database and settings
      AUTH_DIR,
      AUTH_URL: BASE_URL,
      SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
      MAIL_FROM: "Manabiya <no-reply@manabiya.test>",
      GOOGLE_CLIENT_ID: OIDC_CLIENT.id,
      GOOGLE_CLIENT_SECRET: OIDC_CLIENT.secret,
      GOOGLE_ISSUER: OIDC_ISSUER,
      ENTRA_CLIENT_ID: ENTRA_CLIENT.id,
      ENTRA_CLIENT_SECRET: ENTRA_CLIENT.secret,
      ENTRA_ISSUER,
      // the local Entra stand-in's self-signed certificate (tests/e2e/oidc-tls.ts)
      NODE_EXTRA_CA_CERTS: ensureOidcTls().cert,
      METRICS_TOKEN: E2E_METRICS_TOKEN,
      // warnings and errors only in the run's output (every request is an info line); the
      // tests that read log lines start their own server (tests/e2e/logs.spec.ts)
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
    },
  },
});
