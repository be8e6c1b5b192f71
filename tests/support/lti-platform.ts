import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";

/**
 * A 学習eポータル standing in as an LTI 1.3 platform (1EdTech's reference platform flow), for the tests: it serves
 * its JWKS, starts a launch by auto-posting the OIDC login initiation to the tool, and answers the tool's
 * authorisation request by auto-posting a signed id_token and the state to the tool's launch URL. What a launch
 * carries (the person, the deployment, the link) and any tampering are set per launch (`prepare`), named by the
 * lti_message_hint. It checks what a platform checks of the tool's request (client id, redirect URI, response type).
 * A deep linking request (`deepLinking`) asks for a link; the tool's signed response, form-posted back to
 * `deepLinkReturnUrl`, is kept as it came (`returned`), for the test to verify. Its `/frame` page holds a launch (or
 * any page) in an iframe, as a portal that opens the tool inside its own page.
 */
export interface LaunchSpec {
  /** The person's identifier: `sub` (the OneRoster sourcedId). */
  sub: string;
  deploymentId: string;
  targetLinkUri: string;
  roles?: string[];
  /** Changes to the signed claims (undefined removes a claim). */
  claims?: Record<string, unknown>;
  /** Sign with a key the JWKS does not publish (same kid). */
  foreignKey?: boolean;
  /** An LtiDeepLinkingRequest with these settings (defaults: our return URL, ltiResourceLink accepted, no data). */
  deepLinking?: { data?: string; acceptTypes?: string[]; returnUrl?: string };
}

const LTI = "https://purl.imsglobal.org/spec/lti/claim";
const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface LtiPlatformEmulator {
  issuer: string;
  clientId: string;
  deploymentId: string;
  authUrl: string;
  tokenUrl: string;
  jwksUrl: string;
  /** Where a deep linking response comes back (form post of `JWT`). */
  deepLinkReturnUrl: string;
  /** The deep linking responses posted back so far (the JWTs, in order). */
  returned: string[];
  /** Registers a launch; its lti_message_hint. */
  prepare(spec: LaunchSpec): string;
  /** The page that starts the launch `hint` names (GET it in a browser). */
  startUrl(hint: string): string;
  /** A portal page holding `src` (the launch `startUrl`, or any page) in an iframe `#tool`. */
  frameUrl(src: string): string;
  /** A signed id_token for `spec` with `nonce` (for tests that post it themselves). */
  idToken(spec: LaunchSpec, nonce: string): Promise<string>;
  close(): Promise<void>;
}

const escape = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
/** An HTML page that posts `fields` to `action` at once (as the reference platform does). */
function autoPost(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join("");
  return `<!doctype html><html><body><form method="post" action="${escape(action)}">${inputs}</form><script>document.forms[0].submit()</script></body></html>`;
}

export async function startLtiPlatform(options: {
  toolUrl: string;
  port?: number;
  host?: string;
}): Promise<LtiPlatformEmulator> {
  const clientId = `manabiya-${randomUUID().slice(0, 8)}`;
  const deploymentId = `dep-${randomUUID().slice(0, 8)}`;
  // a kid of its own: the tool caches a JWKS per URL, and a later emulator may get a closed one's port
  const kid = `emulator-${randomUUID().slice(0, 8)}`;
  const key: KeyPair = await generateKeyPair("RS256");
  const foreign: KeyPair = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(key.publicKey)), kid, alg: "RS256", use: "sig" };
  const launches = new Map<string, LaunchSpec>();
  const returned: string[] = [];
  const host = options.host ?? "127.0.0.1";
  let issuer = "";

  async function idToken(spec: LaunchSpec, nonce: string): Promise<string> {
    const claims: JWTPayload = {
      nonce,
      azp: clientId,
      name: "テスト 利用者",
      [`${LTI}/message_type`]: "LtiResourceLinkRequest",
      [`${LTI}/version`]: "1.3.0",
      [`${LTI}/deployment_id`]: spec.deploymentId,
      [`${LTI}/target_link_uri`]: spec.targetLinkUri,
      [`${LTI}/resource_link`]: { id: `link-${randomUUID()}` },
      [`${LTI}/roles`]: spec.roles ?? ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
    };
    if (spec.deepLinking) {
      delete claims[`${LTI}/resource_link`];
      claims[`${LTI}/message_type`] = "LtiDeepLinkingRequest";
      claims[`${DL}/deep_linking_settings`] = {
        deep_link_return_url: spec.deepLinking.returnUrl ?? `${issuer}/deep-link-return`,
        accept_types: spec.deepLinking.acceptTypes ?? ["ltiResourceLink"],
        accept_presentation_document_targets: ["iframe", "window"],
        accept_multiple: false,
        ...(spec.deepLinking.data === undefined ? {} : { data: spec.deepLinking.data }),
      };
    }
    const payload: JWTPayload = { iss: issuer, aud: clientId, sub: spec.sub, ...claims, ...spec.claims };
    for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid, typ: "JWT" });
    if (!("iat" in (spec.claims ?? {}))) jwt.setIssuedAt(now);
    if (!("exp" in (spec.claims ?? {}))) jwt.setExpirationTime(now + 300);
    return jwt.sign(spec.foreignKey ? foreign.privateKey : key.privateKey);
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const html = (status: number, body: string) => {
      res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
      res.end(body);
    };
    if (url.pathname === "/jwks") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify({ keys: [jwk] }));
    }
    if (url.pathname === "/start") {
      const hint = url.searchParams.get("hint") ?? "";
      const spec = launches.get(hint);
      if (!spec) return html(404, "unknown launch");
      return html(
        200,
        autoPost(`${options.toolUrl}/api/lti/login`, {
          iss: issuer,
          login_hint: spec.sub,
          target_link_uri: spec.targetLinkUri,
          lti_message_hint: hint,
          client_id: clientId,
          lti_deployment_id: spec.deploymentId,
        }),
      );
    }
    if (url.pathname === "/frame") {
      // the portal's page holding the tool in an iframe (the link opened "in the page", not in a new window)
      const src = url.searchParams.get("src") ?? "";
      return html(
        200,
        `<!doctype html><html><body><h1>portal</h1><iframe id="tool" title="tool" src="${escape(src)}" width="1200" height="640"></iframe></body></html>`,
      );
    }
    if (url.pathname === "/deep-link-return" && req.method === "POST") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        returned.push(new URLSearchParams(body).get("JWT") ?? "");
        html(200, `<!doctype html><html><body><p id="returned">received</p></body></html>`);
      });
      return;
    }
    if (url.pathname === "/auth") {
      const q = url.searchParams;
      const spec = launches.get(q.get("lti_message_hint") ?? "");
      const fits =
        spec &&
        q.get("client_id") === clientId &&
        q.get("redirect_uri") === `${options.toolUrl}/api/lti/launch` &&
        q.get("response_type") === "id_token" &&
        q.get("response_mode") === "form_post" &&
        q.get("scope") === "openid" &&
        q.get("login_hint") === spec.sub &&
        q.get("state") &&
        q.get("nonce");
      if (!fits) return html(400, "invalid authorisation request");
      void idToken(spec, q.get("nonce")!).then((token) =>
        html(200, autoPost(q.get("redirect_uri")!, { id_token: token, state: q.get("state")! })),
      );
      return;
    }
    html(404, "not found");
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    deploymentId,
    authUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/jwks`,
    deepLinkReturnUrl: `${issuer}/deep-link-return`,
    returned,
    prepare(spec) {
      const hint = randomUUID();
      launches.set(hint, spec);
      return hint;
    },
    startUrl: (hint) => `${issuer}/start?hint=${encodeURIComponent(hint)}`,
    frameUrl: (src) => `${issuer}/frame?src=${encodeURIComponent(src)}`,
    idToken,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
