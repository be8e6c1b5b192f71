import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Account, Profile } from "next-auth";
import Google from "next-auth/providers/google";
import MicrosoftEntraID from "next-auth/providers/microsoft-entra-id";
import type { Provider } from "next-auth/providers";
import { audit } from "@/platform/audit/log";
import { env } from "@/platform/env";
import type { RequestClient } from "@/platform/security/client-ip";
import { countSigninFailure } from "@/platform/ops/metrics";
import { type AcademyProvider, findAcademyProvider } from "./academy-provider-queries";
import { linkAccount, recordSignIn } from "./commands";
import type { SigninErrorCode } from "./errors";
import { findOidcCandidate, type OidcCandidate } from "./queries";
import type { Role } from "./roles";
import { openSecret } from "./secret-box";

/** The sign-in methods through an OpenID Connect provider, as the sign-in log and the metrics name them. */
export type OidcMethod = "google" | "entra" | "oidc";

/** Who a provider's ID token says signed in: a verified e-mail, a roster id (userMasterIdentifier), the tenant. */
interface Identity {
  email: string | null;
  rosterId: string | null;
  tenant: string | null;
}

/** One OpenID Connect provider: its next-auth provider, how its claims name a person, and the tenant rule. */
interface OidcSpec {
  method: OidcMethod;
  enabled: () => boolean;
  provider: () => Provider;
  identify: (profile: Profile | undefined) => Identity;
  /** Why `user` may not sign in with a token of `tenant` (null: they may). */
  refuse: (user: OidcCandidate, identity: Identity) => SigninErrorCode | null;
}

const isTrue = (value: unknown) => value === true || value === "true";
const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
const lowerEmail = (value: unknown) => text(value)?.toLowerCase() ?? null;

/** The providers by next-auth id: the sign-in page shows a button for each enabled one, in this order. */
const SPECS: Record<string, OidcSpec> = {
  google: {
    method: "google",
    enabled: () => Boolean(env().GOOGLE_CLIENT_ID && env().GOOGLE_CLIENT_SECRET),
    provider: () =>
      Google({
        clientId: env().GOOGLE_CLIENT_ID,
        clientSecret: env().GOOGLE_CLIENT_SECRET,
        issuer: env().GOOGLE_ISSUER,
      }),
    identify: (profile) => ({
      email: isTrue(profile?.email_verified) ? lowerEmail(profile?.email) : null,
      rosterId: null,
      tenant: null,
    }),
    refuse: () => null,
  },
  "microsoft-entra-id": {
    method: "entra",
    enabled: () => Boolean(env().ENTRA_CLIENT_ID && env().ENTRA_CLIENT_SECRET),
    provider: () =>
      MicrosoftEntraID({
        clientId: env().ENTRA_CLIENT_ID,
        clientSecret: env().ENTRA_CLIENT_SECRET,
        issuer: env().ENTRA_ISSUER,
        // only the ID token's claims: no Microsoft Graph call (the profile photo) and no Graph permission
        authorization: { params: { scope: "openid profile email" } },
        profile: (p) => ({ id: String(p.sub), name: text(p.name), email: lowerEmail(p.email), image: null }),
      }),
    // Entra's `email` is whatever the tenant's administrator typed: trusted only when Entra says the domain owner
    // verified it (xms_edov) or the token says email_verified; `oid` is the person's object id, which a roster's
    // userMasterIdentifier carries.
    identify: (profile) => ({
      email: isTrue(profile?.email_verified) || isTrue(profile?.xms_edov) ? lowerEmail(profile?.email) : null,
      rosterId: text(profile?.oid),
      tenant: text(profile?.tid)?.toLowerCase() ?? null,
    }),
    refuse: (user, identity) => (!user.entraTenantId || user.entraTenantId !== identity.tenant ? "wrongTenant" : null),
  },
};

/** An academy's own provider's next-auth id: "oidc-<slug>" (its callback is /api/auth/callback/oidc-<slug>). */
const ACADEMY_PREFIX = "oidc-";
export const academyProviderId = (slug: string) => `${ACADEMY_PREFIX}${slug}`;

/**
 * The spec of an academy's own provider (a 学習eポータル, a board's Keycloak): the issuer's discovery document names
 * its endpoints; the configured claim names the person ("email": a verified e-mail; "sub" or another claim: the
 * roster's userMasterIdentifier); only a person of that academy, of a role it allows, signs in through it.
 */
function academySpec(row: AcademyProvider): OidcSpec {
  return {
    method: "oidc",
    enabled: () => true,
    provider: () => ({
      id: academyProviderId(row.slug),
      name: row.displayName,
      type: "oidc",
      issuer: row.issuer,
      clientId: row.clientId,
      clientSecret: openSecret(row.clientSecretSealed, env().SIGNIN_CODE_KEY, "oidc-client-secret"),
      authorization: { params: { scope: "openid email profile" } },
      checks: ["pkce", "state"],
      profile: (p) => ({ id: String(p.sub), name: text(p.name), email: lowerEmail(p.email), image: null }),
    }),
    identify: (profile) => {
      if (row.identityClaim === "email")
        return {
          email: isTrue(profile?.email_verified) ? lowerEmail(profile?.email) : null,
          rosterId: null,
          tenant: null,
        };
      const claim = profile?.[row.identityClaim];
      return { email: null, rosterId: typeof claim === "number" ? String(claim) : text(claim), tenant: null };
    },
    refuse: (user) =>
      user.academyId !== row.academyId
        ? "wrongAcademy"
        : row.allowedRoles.includes(user.role)
          ? null
          : "roleNotAllowed",
  };
}

/** The academy provider whose sign-in link is `slug`, as next-auth's provider and its spec (null: none). */
export async function academyProvider(slug: string) {
  const row = await findAcademyProvider(slug);
  return row ? { id: academyProviderId(row.slug), displayName: row.displayName, spec: academySpec(row) } : null;
}

async function specOf(id: string): Promise<OidcSpec | null> {
  if (SPECS[id]) return SPECS[id];
  return id.startsWith(ACADEMY_PREFIX)
    ? ((await academyProvider(id.slice(ACADEMY_PREFIX.length)))?.spec ?? null)
    : null;
}

/** The enabled built-in providers' ids (next-auth's), in the sign-in page's order. */
export function oidcProviderIds(): string[] {
  return Object.keys(SPECS).filter((id) => SPECS[id]!.enabled());
}

/** The provider a sign-in started in a server action goes to (next-auth builds that configuration without a request). */
const startingWith = new AsyncLocalStorage<Provider>();

/**
 * The providers of next-auth's configuration for one request: the enabled built-in ones, and the academy provider
 * the request names (its sign-in or callback route, or the sign-in being started), read from the database only then.
 */
export async function oidcProvidersFor(request: Request | undefined): Promise<Provider[]> {
  const builtIn = oidcProviderIds().map((id) => SPECS[id]!.provider());
  const started = startingWith.getStore();
  if (started) return [...builtIn, started];
  const named =
    request && /^\/api\/auth\/(?:signin|callback)\/oidc-([a-z0-9-]{2,40})$/.exec(new URL(request.url).pathname);
  const academy = named ? await academyProvider(named[1]!) : null;
  return academy ? [...builtIn, academy.spec.provider()] : builtIn;
}

/** Runs `start` (next-auth's signIn) with the provider `id` in next-auth's configuration; false: no such provider. */
export async function startingSignin(id: string, start: () => Promise<unknown>): Promise<boolean> {
  const spec = await specOf(id);
  if (!spec?.enabled()) return false;
  if (SPECS[id]) await start();
  else await startingWith.run(spec.provider(), start);
  return true;
}

/** Where a refused provider sign-in lands: the sign-in page with its reason, and an academy provider's button again. */
export function refusedSigninPath(id: string, code: string): string {
  const params = new URLSearchParams({ error: code });
  if (id.startsWith(ACADEMY_PREFIX)) params.set("academy", id.slice(ACADEMY_PREFIX.length));
  return `/signin?${params}`;
}

/** How a sign-in through next-auth's provider `id` is named in the logs and on the devices list ("entra"…). */

export function signinMethodOf(id: string): string {
  return SPECS[id]?.method ?? (id.startsWith(ACADEMY_PREFIX) ? "oidc" : id);
}

export function isOidcProvider(id: string | undefined): id is string {
  return id !== undefined && (id in SPECS || id.startsWith(ACADEMY_PREFIX));
}

type Match = { ok: true; user: { id: string; role: Role } } | { ok: false; code: SigninErrorCode };

/**
 * The Manabiya user for an OpenID Connect sign-in: an existing, enabled user named by the token's roster id or
 * verified e-mail, of the provider's tenant where it has one. Nobody is ever created. With `link`, the provider's
 * account is linked to the user (accounts table) and the sign-in or its refusal recorded in the sign-in log (`client`).
 */
export async function matchOidcAccount(
  account: Account,
  profile: Profile | undefined,
  options: { link: boolean; client?: RequestClient } = { link: true },
): Promise<Match> {
  const spec = await specOf(account.provider);
  if (!spec) return { ok: false, code: "providerFailed" };
  const identity = spec.identify(profile);
  const user = identity.email || identity.rosterId ? await findOidcCandidate(identity) : null;
  const log = (result: "success" | "failure", reason?: SigninErrorCode) =>
    audit({
      action: `signin.${spec.method}.${result}`,
      actorId: user?.id,
      schoolId: user?.schoolId,
      academyId: user?.academyId,
      ...options.client,
      ...(reason ? { meta: { email: identity.email ?? lowerEmail(profile?.email), reason } } : {}),
    });
  const code = !user ? "userNotFound" : (spec.refuse(user, identity) ?? (user.disabled ? "userDisabled" : null));
  if (!user || code) {
    const failure = code ?? "userNotFound";
    if (options.link) {
      countSigninFailure(spec.method, failure);
      await log("failure", failure);
    }
    return { ok: false, code: failure };
  }
  if (options.link) {
    await linkAccount(user.id, account);
    await recordSignIn(user.id);
    await log("success");
  }
  return { ok: true, user: { id: user.id, role: user.role } };
}
