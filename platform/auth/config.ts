import "server-only";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import type { Provider } from "next-auth/providers";
import { headers as servedHeaders } from "next/headers";
import { env } from "@/platform/env";
import { applyLanguageAtSignin } from "@/platform/i18n/signin";
import { sessionCookieConfig } from "./cookies";
import { checkCode, checkPassword } from "./credentials";
import { isOidcProvider, matchOidcAccount, oidcProvidersFor, refusedSigninPath, signinMethodOf } from "./oidc";
import { encodeFailure } from "./errors";
import { requestClient } from "@/platform/security/client-ip";
import { isRole } from "./roles";
import { endSessions, openSession } from "./session-version-commands";
import { amrAssertsSecondFactor, secondFactorDue } from "./second-factor";
import { SESSION_HOURS } from "./device-sessions";
import { VERIFIED_PROVIDER, verifiedProvider } from "./verified-signin";
import { framingOrigins } from "@/platform/security/headers";

/** Thrown from authorize(): carries one of platform/auth/errors.ts's codes to the form. */
class SigninFailure extends CredentialsSignin {
  constructor(code: string) {
    super(code);
    this.code = code;
  }
}

/**
 * Who is signing in (address, user agent): the request next-auth was handed (its own routes: the providers'
 * callbacks), else the request being served (a password or code sign-in runs in a server action, where
 * next-auth is handed none).
 */
async function signinClient(given: Pick<Headers, "get"> | undefined) {
  if (given) return requestClient(given);
  try {
    return requestClient(await servedHeaders());
  } catch {
    return requestClient(undefined); // outside any request (a script): nobody to describe
  }
}

/** An LTI launch's session: the portal's origins that may frame its pages (the token's `fa`, read by proxy.ts). */
function framingOf(provider: string | undefined, user: unknown): string[] {
  if (provider !== VERIFIED_PROVIDER) return [];
  return framingOrigins((user as { frameAncestors?: unknown } | undefined)?.frameAncestors);
}

function config(headers: Pick<Headers, "get"> | undefined, oidcProviders: Provider[]): NextAuthConfig {
  return {
    secret: env().AUTH_SECRET,
    trustHost: true,
    session: { strategy: "jwt", maxAge: 60 * 60 * SESSION_HOURS },
    cookies: { sessionToken: sessionCookieConfig(env().AUTH_URL) },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      Credentials({
        id: "password",
        credentials: { email: {}, password: {} },
        async authorize(credentials, request) {
          const { ip, userAgent } = requestClient(request.headers);
          const result = await checkPassword(credentials, ip, userAgent);
          if (!result.ok) throw new SigninFailure(encodeFailure(result.code, result.retryMinutes));
          return { id: result.user.id, role: result.user.role };
        },
      }),
      Credentials({
        id: "code",
        credentials: { code: {} },
        async authorize(credentials, request) {
          const { ip, userAgent } = requestClient(request.headers);
          const result = await checkCode(credentials?.code, ip, userAgent);
          if (!result.ok) throw new SigninFailure(encodeFailure(result.code, result.retryMinutes));
          return { id: result.user.id, role: result.user.role };
        },
      }),
      verifiedProvider(),
      ...oidcProviders,
    ],
    events: {
      /** Signing out ends every session of the user, copies of the cookie included. */
      async signOut(message) {
        const sub = "token" in message ? message.token?.sub : undefined;
        if (sub) await endSessions([sub]);
      },
    },
    callbacks: {
      /** Google and Microsoft sign in only an existing, enabled user the token names (platform/auth/oidc.ts). */
      async signIn({ account, profile }) {
        if (!account || !isOidcProvider(account.provider)) return true;
        const result = await matchOidcAccount(account, profile, { link: true, client: requestClient(headers) });
        return result.ok ? true : refusedSigninPath(account.provider, result.code);
      },
      async jwt({ token, user, account, profile }) {
        if (account && isOidcProvider(account.provider)) {
          const result = await matchOidcAccount(account, profile, { link: false });
          if (!result.ok) throw new Error("provider account no longer matches");
          token.sub = result.user.id;
          token.role = result.user.role;
        } else if (user?.id) {
          token.sub = user.id;
          token.role = (user as { role?: string }).role;
        }
        if ((account || user) && token.sub) {
          // a new session carries the user's session version and, for staff, its device (platform/auth/device-sessions.ts)
          const method =
            account?.provider === VERIFIED_PROVIDER
              ? String((user as { method?: string }).method)
              : signinMethodOf(account?.provider ?? "password");
          const pending =
            token.role !== "student" && (await secondFactorDue(token.sub, amrAssertsSecondFactor(profile)));
          const opened = await openSession(token.sub, method, await signinClient(headers), pending);
          token.sv = opened.sv;
          if (opened.sid) token.sid = opened.sid;
          const framing = framingOf(account?.provider, user);
          if (framing.length) token.fa = framing;
          // and the person's display language becomes the cookie (the previous user's stays behind)
          await applyLanguageAtSignin(token.sub);
        }
        return token;
      },
      session({ session, token }) {
        if (token.sub && isRole(token.role)) {
          session.user = { ...session.user, id: token.sub, role: token.role };
        }
        return session;
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(async (request) =>
  config(request?.headers, await oidcProvidersFor(request)),
);
