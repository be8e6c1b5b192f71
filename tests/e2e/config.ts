import { PG_PORTS } from "../../scripts/lib/ports";

/** Where the e2e app and its database live (see playwright.config.ts). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
/** The e2e cluster (.data/pg-e2e): its own, so integration tests on TEST_PG_PORT can run alongside. */
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? PG_PORTS.e2e);
export const E2E_DB_NAME = "manabiya_e2e";
export const E2E_DATABASE_URL = `postgresql://postgres:manabiya-local@127.0.0.1:${E2E_PG_PORT}/${E2E_DB_NAME}`;
export const BASE_URL = `http://localhost:${E2E_PORT}`;
/**
 * The tests' Chromium: Debian's headless shell (Chromium's engine without the browser's window and UI, what Playwright
 * runs headless tests in by default), at about half the CPU per page of the full browser on two shared cores.
 */
export const E2E_CHROMIUM = process.env.E2E_CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
export const AUTH_DIR = ".data/e2e-auth";
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? E2E_PORT + 25);
/** Mails the test SMTP server received, one .eml file each. */
export const MAIL_DIR = ".data/e2e-mail";
/** The local OpenID provider that stands in for Google in the tests. */
export const E2E_OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? E2E_PORT + 30);
export const OIDC_ISSUER = `http://127.0.0.1:${E2E_OIDC_PORT}`;
/** The local OpenID provider that stands in for Microsoft Entra ID: over HTTPS, as next-auth's Entra provider requires. */
export const E2E_ENTRA_PORT = Number(process.env.E2E_ENTRA_PORT ?? E2E_PORT + 31);
export const ENTRA_ISSUER = `https://127.0.0.1:${E2E_ENTRA_PORT}`;
/** The local OpenID provider that stands in for an academy's own one (a board's Keycloak, a 学習eポータル). */
export const E2E_KEYCLOAK_PORT = Number(process.env.E2E_KEYCLOAK_PORT ?? E2E_PORT + 32);
export const KEYCLOAK_ISSUER = `http://127.0.0.1:${E2E_KEYCLOAK_PORT}`;
/** Its client: the app registered there for any academy's provider "oidc-<slug>" (tests/e2e/oidc-provider.ts). */
export const KEYCLOAK_CLIENT = { id: "manabiya-e2e-keycloak", secret: "manabiya-e2e-keycloak-secret" };
/** The bearer token of GET /metrics on the e2e server (METRICS_TOKEN; tests/e2e/metrics.spec.ts). */
export const E2E_METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";
export const OIDC_CLIENT = { id: "manabiya-e2e", secret: "manabiya-e2e-secret" };
/** The local provider's Entra-shaped client (the app registration Microsoft sign-in uses in the tests). */
export const ENTRA_CLIENT = { id: "manabiya-e2e-entra", secret: "manabiya-e2e-entra-secret" };
