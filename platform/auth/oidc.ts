import "server-only";
import type { Account, Profile } from "next-auth";
import Google from "next-auth/providers/google";
import MicrosoftEntraID from "next-auth/providers/microsoft-entra-id";
import type { Provider } from "next-auth/providers";
import { audit } from "@/platform/audit/log";
import { env } from "@/platform/env";
import type { RequestClient } from "@/platform/security/client-ip";
import { countSigninFailure } from "@/platform/ops/metrics";
import { linkAccount, recordSignIn } from "./commands";
import type { SigninErrorCode } from "./errors";
import { findOidcCandidate, type OidcCandidate } from "./queries";
import type { Role } from "./roles";

/** The sign-in methods through an OpenID Connect provider, as the sign-in log and the metrics name them. */
export type OidcMethod = "google" | "entra";

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

/** The enabled providers' ids (next-auth's), in the sign-in page's order. */
export function oidcProviderIds(): string[] {
  return Object.keys(SPECS).filter((id) => SPECS[id]!.enabled());
}

/** The enabled providers for next-auth's configuration. */
export function oidcProviders(): Provider[] {
  return oidcProviderIds().map((id) => SPECS[id]!.provider());
}

/** How a sign-in through next-auth's provider `id` is named in the logs and on the devices list ("entra"…). */
export function signinMethodOf(id: string): string {
  return SPECS[id]?.method ?? id;
}

export function isOidcProvider(id: string | undefined): id is string {
  return id !== undefined && id in SPECS;
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
  const spec = SPECS[account.provider];
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
