import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTPayload, jwtVerify, SignJWT } from "jose";

/**
 * A 学習eポータル standing in as an LTI 1.3 platform (1EdTech's reference platform flow), for the tests: it serves
 * its JWKS, starts a launch by auto-posting the OIDC login initiation to the tool, and answers the tool's
 * authorisation request by auto-posting a signed id_token and the state to the tool's launch URL. What a launch
 * carries (the person, the deployment, the link) and any tampering are set per launch (`prepare`), named by the
 * lti_message_hint. It checks what a platform checks of the tool's request (client id, redirect URI, response type).
 * A deep linking request (`deepLinking`) asks for a link; the tool's signed response, form-posted back to
 * `deepLinkReturnUrl`, is kept as it came (`returned`), for the test to verify. Its `/frame` page holds a launch (or
 * any page) in an iframe, as a portal that opens the tool inside its own page.
 *
 * Its services (Assignment and Grade Services 2.0, Names and Role Provisioning 2.0): a token endpoint (client
 * credentials with a JWT client assertion, Security Framework §4.1) that verifies the assertion against the tool's
 * JWKS and refuses a bad or replayed one; each line item's `/scores` keeps what it receives (`scores`) and answers
 * with `scoreStatus`; a context's members (`setMembers`) served PAGE_SIZE at a time with `Link: rel="next"`.
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
export const AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint";
export const NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice";
export const SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
export const MEMBERS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly";
export const SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";
export const MEMBERS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";
const PAGE_SIZE = 2;

/** A score as the platform received it. */
export interface ReceivedScore {
  lineitem: string;
  contentType: string;
  body: Record<string, unknown>;
  status: number;
}

const ACTIVITY_PROGRESS = ["Initialized", "Started", "InProgress", "Submitted", "Completed"];
const GRADING_PROGRESS = ["FullyGraded", "Pending", "PendingManual", "Failed", "NotReady"];

/** What makes `body` not a score of application/vnd.ims.lis.v1.score+json (AGS 2.0 §3.4.2); [] when it is one. */
export function scoreProblems(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (typeof body.userId !== "string" || !body.userId) problems.push("userId");
  const at = typeof body.timestamp === "string" ? body.timestamp : "";
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(at)) problems.push("timestamp");
  if (!ACTIVITY_PROGRESS.includes(String(body.activityProgress))) problems.push("activityProgress");
  if (!GRADING_PROGRESS.includes(String(body.gradingProgress))) problems.push("gradingProgress");
  if ("scoreGiven" in body) {
    if (typeof body.scoreGiven !== "number" || body.scoreGiven < 0) problems.push("scoreGiven");
    if (typeof body.scoreMaximum !== "number" || body.scoreMaximum <= 0) problems.push("scoreMaximum");
  }
  return problems;
}

/** A member of a context (NRPS 2.0 §2.2). */
export interface Member {
  user_id: string;
  lis_person_sourcedid?: string;
  roles: string[];
  status?: "Active" | "Inactive" | "Deleted";
  name?: string;
}

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
  /** The launch claims of a line item (AGS) and of a context's members (NRPS), for `claims`. */
  serviceClaims(options: { lineitem?: string; context?: string }): Record<string, unknown>;
  /** A line item's URL. */
  lineitemUrl(id: string): string;
  /** The token requests so far: granted, or why refused. */
  tokenRequests: { granted: boolean; scope: string; error?: string }[];
  /** The scores received so far, in order. */
  scores: ReceivedScore[];
  /** How the next score is answered (n: the scores received before it); 200 unless set. */
  scoreStatus: (n: number) => number;
  /** The members of a context; `refuse` answers the membership request with 403. */
  setMembers(context: string, members: Member[], refuse?: boolean): void;
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
  /** The tool's public keys (default: fetched from <toolUrl>/api/lti/jwks). */
  toolJwks?: () => Promise<{ keys: JWK[] }>;
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
  const services = serviceState(options, () => issuer, clientId);

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
    if (services.handle(req, res, url)) return;
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
    serviceClaims: (o) => services.claims(o),
    lineitemUrl: (id) => `${issuer}/lineitems/${encodeURIComponent(id)}`,
    tokenRequests: services.tokenRequests,
    scores: services.scores,
    get scoreStatus() {
      return services.scoreStatus;
    },
    set scoreStatus(f) {
      services.scoreStatus = f;
    },
    setMembers: (context, members, refuse) => services.members.set(context, { members, refuse: refuse ?? false }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => resolve(body));
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The platform's services: its token endpoint, line items' scores, contexts' members. */
function serviceState(
  options: { toolUrl: string; toolJwks?: () => Promise<{ keys: JWK[] }> },
  issuer: () => string,
  clientId: string,
) {
  const tokens = new Map<string, string[]>();
  const usedJti = new Set<string>();
  const state = {
    tokenRequests: [] as { granted: boolean; scope: string; error?: string }[],
    scores: [] as ReceivedScore[],
    scoreStatus: ((_n: number) => 200) as (n: number) => number,
    members: new Map<string, { members: Member[]; refuse: boolean }>(),
  };
  const toolJwks =
    options.toolJwks ??
    (async () => (await (await fetch(`${options.toolUrl}/api/lti/jwks`)).json()) as { keys: JWK[] });

  /** Security Framework §4.1: a client assertion signed by the tool's key, for us, fresh, used once. */
  async function assertionError(form: URLSearchParams): Promise<string | null> {
    if (form.get("grant_type") !== "client_credentials") return "unsupported_grant_type";
    if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
      return "invalid_request";
    try {
      const { payload } = await jwtVerify(form.get("client_assertion") ?? "", createLocalJWKSet(await toolJwks()), {
        issuer: clientId,
        subject: clientId,
        audience: `${issuer()}/token`,
        algorithms: ["RS256"],
        requiredClaims: ["jti", "exp", "iat"],
        maxTokenAge: "10m",
      });
      if (usedJti.has(payload.jti!)) return "invalid_client: jti replayed";
      usedJti.add(payload.jti!);
      return null;
    } catch (error) {
      return `invalid_client: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    const scope = form.get("scope") ?? "";
    const error = await assertionError(form);
    state.tokenRequests.push({ granted: !error, scope, ...(error ? { error } : {}) });
    if (error) return json(res, 401, { error: error.split(":")[0] });
    const accessToken = randomUUID();
    tokens.set(accessToken, scope.split(" "));
    json(res, 200, { access_token: accessToken, token_type: "Bearer", expires_in: 3600, scope });
  }

  const allowed = (req: IncomingMessage, scope: string) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    return Boolean(bearer && tokens.get(bearer)?.includes(scope));
  };

  async function score(req: IncomingMessage, res: ServerResponse, lineitem: string) {
    const text = await readBody(req);
    if (!allowed(req, SCORE_SCOPE)) return json(res, 401, { error: "invalid_token" });
    const body = JSON.parse(text) as Record<string, unknown>;
    const valid = req.headers["content-type"] === SCORE_TYPE && scoreProblems(body).length === 0;
    const status = valid ? state.scoreStatus(state.scores.length) : 400;
    state.scores.push({ lineitem, contentType: req.headers["content-type"] ?? "", body, status });
    json(res, status, status < 300 ? {} : { error: "refused" });
  }

  function memberships(req: IncomingMessage, res: ServerResponse, url: URL, context: string) {
    if (!allowed(req, MEMBERS_SCOPE)) return json(res, 401, { error: "invalid_token" });
    const held = state.members.get(context);
    if (!held || held.refuse) return json(res, 403, { error: "forbidden" });
    const page = Number(url.searchParams.get("page") ?? "0");
    const members = held.members.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
    const more = (page + 1) * PAGE_SIZE < held.members.length;
    const next = `${issuer()}${url.pathname}?page=${page + 1}`;
    json(
      res,
      200,
      { id: `${issuer()}${url.pathname}`, context: { id: context }, members },
      {
        "Content-Type": MEMBERS_TYPE,
        ...(more ? { Link: `<${next}>; rel="next"` } : {}),
      },
    );
  }

  function handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const scoreMatch = /^\/lineitems\/([^/]+)\/scores$/.exec(url.pathname);
    const membersMatch = /^\/contexts\/([^/]+)\/memberships$/.exec(url.pathname);
    if (url.pathname === "/token" && req.method === "POST") void token(req, res);
    else if (scoreMatch && req.method === "POST") void score(req, res, decodeURIComponent(scoreMatch[1]!));
    else if (membersMatch && req.method === "GET") memberships(req, res, url, decodeURIComponent(membersMatch[1]!));
    else return false;
    return true;
  }

  function claims(o: { lineitem?: string; context?: string }): Record<string, unknown> {
    return {
      ...(o.context ? { [`${LTI}/context`]: { id: o.context, title: o.context } } : {}),
      ...(o.lineitem
        ? {
            [AGS_CLAIM]: {
              scope: [SCORE_SCOPE, "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"],
              lineitem: `${issuer()}/lineitems/${encodeURIComponent(o.lineitem)}`,
            },
          }
        : {}),
      ...(o.context
        ? {
            [NRPS_CLAIM]: {
              context_memberships_url: `${issuer()}/contexts/${encodeURIComponent(o.context)}/memberships`,
              service_versions: ["2.0"],
            },
          }
        : {}),
    };
  }

  return {
    ...state,
    get scoreStatus() {
      return state.scoreStatus;
    },
    set scoreStatus(f) {
      state.scoreStatus = f;
    },
    handle,
    claims,
  };
}
