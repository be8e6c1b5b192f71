import { readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { Server } from "node:http";
import Provider, { type ClientMetadata, type Configuration, type JWK } from "oidc-provider";
import {
  BASE_URL,
  E2E_ENTRA_PORT,
  E2E_OIDC_PORT,
  ENTRA_CLIENT,
  ENTRA_ISSUER,
  E2E_KEYCLOAK_PORT,
  KEYCLOAK_CLIENT,
  KEYCLOAK_ISSUER,
  OIDC_CLIENT,
  OIDC_ISSUER,
} from "./config";
import { ensureOidcTls } from "./oidc-tls";
import { installTampering, signingKeys, untampered } from "./oidc-tamper";

/** The Entra-shaped login of the local provider: "entra:<tenant id>:<e-mail>[:<object id>]". */
export function entraLogin(tenant: string, email: string, oid?: string): string {
  return ["entra", tenant, email, ...(oid ? [oid] : [])].join(":");
}

/**
 * Claims as Microsoft Entra ID puts them in an ID token: the tenant (`tid`), the object id (`oid`), the sign-in
 * name, the e-mail and, when the domain owner verified it, `xms_edov`.
 */
function entraClaims(id: string) {
  const [, tid, login = "", oid = `oid-${login}`] = id.split(":");
  const email = login.replace(/^unverified-/, "");
  return {
    sub: id,
    tid,
    oid,
    preferred_username: email,
    email,
    xms_edov: !login.startsWith("unverified-"),
    name: email,
  };
}

/**
 * The Keycloak-shaped login of the local provider: "kc|<e-mail>|<roster id>[|<amr,…>]" (its `sub` is the whole
 * login); an e-mail starting with "unverified-" is not verified; `amr`: the methods the ID token says were used.
 */
export function keycloakLogin(email: string, rosterId = "", amr: string[] = []): string {
  return ["kc", email, rosterId, ...(amr.length > 0 ? [amr.join(",")] : [])].join("|");
}

/** Claims as a Keycloak realm with a roster id mapper puts them: e-mail, its verification and `roster_id`. */
function keycloakClaims(id: string) {
  const [, login = "", rosterId = ""] = id.split("|");
  const email = login.replace(/^unverified-/, "");
  const verified = !login.startsWith("unverified-");
  return { sub: id, email, email_verified: verified, preferred_username: email, name: email, roster_id: rosterId };
}

/**
 * The ID token's `amr` (RFC 8176) of a Keycloak-shaped login that names methods, as a realm puts it after its own
 * second factor. oidc-provider takes `amr` from its login session only, so it is set on the token as it is issued.
 */
function assertAmr(provider: Provider) {
  const issue = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = function (this: InstanceType<Provider["IdToken"]>, ...args) {
    const amr = String((this as unknown as { available: { sub?: unknown } }).available.sub ?? "").split("|")[3];
    if (amr) this.set("amr", amr.split(","));
    return issue.apply(this, args);
  };
}

/** Claims as Google puts them: the e-mail and whether Google verified it. */
function googleClaims(id: string) {
  const login = untampered(id);
  const email = login.replace(/^unverified-/, "");
  return { sub: id, email, email_verified: !login.startsWith("unverified-"), name: id };
}

/**
 * One local provider with one client; its sign-in form accepts any login, `claims` turns the login into claims, and a
 * login "<tampering>:<login>" gets a spoiled ID token (tests/e2e/oidc-tamper.ts).
 */
function localProvider(
  issuer: string,
  c: { id: string; secret: string },
  callback: string,
  claims: (id: string) => Record<string, unknown>,
) {
  const client: ClientMetadata = {
    client_id: c.id,
    client_secret: c.secret,
    redirect_uris: [`${BASE_URL}/api/auth/callback/${callback}`],
    grant_types: ["authorization_code"],
    response_types: ["code"],
  };
  const keys = signingKeys(`${c.id}-key`);
  const configuration: Configuration = {
    clients: [client],
    jwks: { keys: [keys.jwk as JWK] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified", "xms_edov"],
      profile: ["name", "preferred_username", "tid", "oid", "roster_id"],
    },
    pkce: { required: () => false },
    // Like Google and Entra: the e-mail and tenant claims travel in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => ({ sub: id, ...claims(id) }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  installTampering(provider, keys);
  if (callback === "oidc-*") {
    // one registration for every academy's provider of the tests: each academy's callback is /api/auth/callback/oidc-<slug>
    provider.Client.prototype.redirectUriAllowed = (uri: string) =>
      new RegExp(`^${BASE_URL}/api/auth/callback/oidc-[a-z0-9-]+$`).test(uri);
  }
  return provider;
}

/**
 * Local OpenID Connect providers standing in for Google (http), for Microsoft Entra ID (https, a self-signed
 * certificate) and for an academy's own provider (http, Keycloak-shaped). A Google-shaped login is the account's
 * e-mail, an Entra-shaped one is `entraLogin(…)`, a Keycloak-shaped one `keycloakLogin(…)`; an e-mail starting with
 * "unverified-" is not verified.
 */
export async function startOidcProvider(): Promise<() => Promise<void>> {
  const google = localProvider(OIDC_ISSUER, OIDC_CLIENT, "google", googleClaims);
  const entra = localProvider(ENTRA_ISSUER, ENTRA_CLIENT, "microsoft-entra-id", entraClaims);
  const keycloak = localProvider(KEYCLOAK_ISSUER, KEYCLOAK_CLIENT, "oidc-*", keycloakClaims);
  assertAmr(keycloak);
  const tls = ensureOidcTls();
  const servers: Server[] = await Promise.all([
    new Promise<Server>((resolve) => {
      const s = keycloak.listen(E2E_KEYCLOAK_PORT, "127.0.0.1", () => resolve(s));
    }),
    new Promise<Server>((resolve) => {
      const s = google.listen(E2E_OIDC_PORT, "127.0.0.1", () => resolve(s));
    }),
    new Promise<Server>((resolve) => {
      const options = { key: readFileSync(tls.key), cert: readFileSync(tls.cert) };
      const handle = entra.callback();
      const s = createHttpsServer(options, (req, res) => void handle(req, res));
      s.listen(E2E_ENTRA_PORT, "127.0.0.1", () => resolve(s));
    }),
  ]);
  return async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  };
}
