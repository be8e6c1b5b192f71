import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";

/** Where the local Entra-shaped provider's self-signed certificate lives (made on first use, never committed). */
export const OIDC_TLS_DIR = ".data/e2e-tls";
export const OIDC_TLS = { key: path.join(OIDC_TLS_DIR, "oidc.key"), cert: path.join(OIDC_TLS_DIR, "oidc.crt") };

/**
 * A self-signed certificate for 127.0.0.1: Entra's sign-in (next-auth's Microsoft provider) fetches the tenant's
 * discovery document over HTTPS only, so the local stand-in serves HTTPS; the app under test trusts this
 * certificate through NODE_EXTRA_CA_CERTS (playwright.config.ts), the browser through ignoreHTTPSErrors.
 */
export function ensureOidcTls(): typeof OIDC_TLS {
  if (existsSync(OIDC_TLS.key) && existsSync(OIDC_TLS.cert)) return OIDC_TLS;
  mkdirSync(OIDC_TLS_DIR, { recursive: true });
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "3650", "-subj", "/CN=127.0.0.1"],
      ...["-keyout", OIDC_TLS.key, "-out", OIDC_TLS.cert],
      ...["-addext", "subjectAltName=IP:127.0.0.1", "-addext", "basicConstraints=critical,CA:TRUE"],
    ],
    { stdio: "ignore" },
  );
  return OIDC_TLS;
}
