import type { Server } from "node:http";
import Provider from "oidc-provider";
import { BASE_URL, E2E_OIDC_PORT, OIDC_CLIENT, OIDC_ISSUER } from "./config";

/**
 * A local OpenID Connect provider standing in for Google. Its sign-in form
 * accepts any login: the login is the account's e-mail; a login starting with
 * "unverified-" has email_verified false.
 */
export async function startOidcProvider(): Promise<() => Promise<void>> {
  const provider = new Provider(OIDC_ISSUER, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${BASE_URL}/api/auth/callback/google`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    pkce: { required: () => false },
    // Like Google: the e-mail claims travel in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email: id.replace(/^unverified-/, ""),
            email_verified: !id.startsWith("unverified-"),
            name: id,
          };
        },
      };
    },
  });
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(E2E_OIDC_PORT, "127.0.0.1", () => resolve(s));
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
