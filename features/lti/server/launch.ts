import "server-only";
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import { homeOf, type Role } from "@/platform/auth/roles";
import { errorField, log } from "@/platform/ops/log";
import { publicUrl } from "@/platform/env";
import { framingOrigins } from "@/platform/security/headers";
import {
  CLAIM,
  DEEP_LINKING_REQUEST,
  type LaunchRefusal,
  LTI_VERSION,
  RESOURCE_LINK_REQUEST,
  servicesOf,
  TOOL_PATHS,
} from "@/features/lti/shared/claims";
import { type DeepLinkSettings, deepLinkSettingsOf, startDeepLink } from "./deep-link";
import { takeLaunchState } from "./launch-commands";
import { activityModeIn, findLaunchPerson, findPlatformById } from "./launch-queries";
import { hashSecret, portalOrigins } from "./login";
import { checkScores } from "./score-queue";
import { rememberServiceLink } from "./service-link-commands";

type Platform = NonNullable<Awaited<ReturnType<typeof findPlatformById>>>;
type Person = NonNullable<Awaited<ReturnType<typeof findLaunchPerson>>>;

export interface LaunchInput {
  idToken: unknown;
  state: unknown;
  /** Whether this browser holds the state's cookie (it started the login). */
  stateBound: boolean;
}

export type LaunchOutcome =
  | { ok: true; user: { id: string; role: Role }; academyId: string; landing: string; frameAncestors: string[] }
  | { ok: false; code: LaunchRefusal; academyId?: string; userId?: string; frameAncestors?: string[] };

/** A refusal; once the platform is known, its portal may frame the refusal page (platform/security/frame-pass.ts). */
const refuse = (code: LaunchRefusal, platform?: Platform, userId?: string): LaunchOutcome => ({
  ok: false,
  code,
  academyId: platform?.academyId,
  userId,
  ...(platform && { frameAncestors: portalOrigins(platform) }),
});

/** How old an id_token may be (its `iat`), and the clock skew allowed on `exp` and `iat`. */
const MAX_TOKEN_AGE = "10m";
const CLOCK_TOLERANCE_S = 5;

const KEY = Symbol.for("manabiya.lti.jwks");
// one remote key set per platform JWKS URL (jose caches the keys and refetches on an unknown kid)
const keySets = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<
  string,
  ReturnType<typeof createRemoteJWKSet>
>;
function keySetOf(url: string) {
  let set = keySets.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    keySets.set(url, set);
  }
  return set;
}

/** jose's refusal of a token as ours. */
function refusalOf(error: unknown): LaunchRefusal {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === "missing") return "missingClaims";
    if (error.claim === "iss") return "unknownIssuer";
    if (error.claim === "aud") return "wrongAudience";
    if (error.claim === "iat" || error.claim === "nbf") return "expired";
    return "missingClaims";
  }
  return "badSignature";
}

/** The token's signature (the platform's JWKS), issuer, audience, lifetime; its payload, or why not. */
async function verifyToken(token: string, platform: Platform): Promise<JWTPayload | LaunchRefusal> {
  try {
    const { payload } = await jwtVerify(token, keySetOf(platform.jwksUrl), {
      issuer: platform.issuer,
      audience: platform.clientId,
      algorithms: ["RS256", "RS384", "RS512", "PS256", "ES256"],
      maxTokenAge: MAX_TOKEN_AGE,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["exp", "iat", "nonce", "sub"],
    });
    return payload;
  } catch (error) {
    return refusalOf(error);
  }
}

/** `azp` (OIDC Core 3.1.3.7): required with several audiences, and our client id whenever present. */
function azpFits(payload: JWTPayload, clientId: string): boolean {
  const several = Array.isArray(payload.aud) && payload.aud.length > 1;
  if (payload.azp === undefined) return !several;
  return payload.azp === clientId;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);

/**
 * The LTI claims of a resource link launch (message type, version, deployment, link, roles, target) or of a deep
 * linking request (message type, version, deployment, roles; its settings: deepLinkSettingsOf).
 */
function claimRefusal(payload: JWTPayload, platform: Platform): LaunchRefusal | null {
  const type = payload[CLAIM.messageType];
  const version = payload[CLAIM.version];
  if (type === undefined || version === undefined) return "missingClaims";
  if ((type !== RESOURCE_LINK_REQUEST && type !== DEEP_LINKING_REQUEST) || version !== LTI_VERSION)
    return "wrongMessage";
  const deployment = text(payload[CLAIM.deploymentId]);
  if (!deployment) return "missingClaims";
  if (!platform.deploymentIds.includes(deployment)) return "unknownDeployment";
  if (!Array.isArray(payload[CLAIM.roles])) return "missingClaims";
  if (type === DEEP_LINKING_REQUEST) return null;
  const link = payload[CLAIM.resourceLink] as { id?: unknown } | undefined;
  return text(link?.id) && text(payload[CLAIM.targetLinkUri]) ? null : "missingClaims";
}

/** A deep linking request's settings (null: a resource link launch), or why they are refused. */
const settingsOf = (payload: JWTPayload, platform: Platform): DeepLinkSettings | LaunchRefusal | null =>
  payload[CLAIM.messageType] === DEEP_LINKING_REQUEST ? deepLinkSettingsOf(payload, returnOrigins(platform)) : null;

/** Where a deep linking response may go: the origins of the platform's registered issuer and URLs. */
const returnOrigins = (platform: Platform) =>
  framingOrigins([platform.issuer, platform.authLoginUrl, platform.tokenUrl, platform.jwksUrl]);

/** The person's sourcedId: `sub`, or the platform's custom claim (lower-case: sourcedIds are stored so). */
function sourcedIdOf(payload: JWTPayload, claim: string): string | null {
  const custom = payload[CLAIM.custom] as Record<string, unknown> | undefined;
  const value = claim === "sub" ? payload.sub : custom?.[claim];
  return text(value)?.toLowerCase() ?? null;
}

const ACTIVITY_PATH = new RegExp(
  `^${TOOL_PATHS.activity}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`,
  "i",
);

/** The activity the link names: its target on our origin (/lti/activities/<id>), or the custom `activity_id`. */
function activityOf(payload: JWTPayload): string | null {
  try {
    const target = new URL(String(payload[CLAIM.targetLinkUri]));
    const match = target.origin === new URL(publicUrl()).origin ? ACTIVITY_PATH.exec(target.pathname) : null;
    if (match) return match[1]!.toLowerCase();
  } catch {
    // not a URL: no activity from it
  }
  const custom = text((payload[CLAIM.custom] as Record<string, unknown> | undefined)?.activity_id);
  return custom && ACTIVITY_PATH.test(`${TOOL_PATHS.activity}${custom}`) ? custom.toLowerCase() : null;
}

/**
 * Where the person lands: a student in the activity's running session (guide mode) or its self mode, a teacher on
 * its console; the own home when the link names no activity of their school or it is in neither mode.
 */
async function landingOf(person: Person, activityId: string | null): Promise<string> {
  const mode = activityId ? await activityModeIn(activityId, person.schoolId) : null;
  if (!activityId || !mode) return homeOf(person.role);
  if (person.role === "teacher") return `/dashboard/teacher/activities/guide/${activityId}`;
  if (person.role === "student" && mode === "guide") return `/dashboard/student/activities/session/${activityId}`;
  if (person.role === "student" && mode === "self") return `/dashboard/student/activities/solo/${activityId}`;
  return homeOf(person.role);
}

/**
 * A launch into an activity of the person's school that names the platform's services (a line item, a context's
 * members) is remembered for this person, activity and link; a line item turns the scores on in this process.
 */
async function rememberServices(person: Person, platform: Platform, payload: JWTPayload, activityId: string | null) {
  const services = servicesOf(payload);
  if (!services || !activityId || !(await activityModeIn(activityId, person.schoolId))) return;
  await rememberServiceLink({ platformId: platform.id, userId: person.id, activityId }, services);
  if (services.lineitem)
    await checkScores().catch((error: unknown) =>
      log().error({ event: "lti.scores.start.failed", ...errorField(error) }, "lti: the score queue did not start"),
    );
}

/** Where a deep linking request's staff member lands: the picker, with the request kept for them (deep-link.ts). */
function deepLinkLanding(person: Person, platform: Platform, payload: JWTPayload, settings: DeepLinkSettings) {
  const deploymentId = text(payload[CLAIM.deploymentId])!;
  return startDeepLink({ ...settings, userId: person.id, platformId: platform.id, deploymentId });
}

/**
 * Verifies a resource link launch or a deep linking request (LTI Core 1.3 §5.1, Security Framework §5.1.3, Deep
 * Linking 2.0 §4.4): the state was made by our login step for this browser and is used once; the id_token is signed
 * by the platform's key, issued by it, for our client id (and `azp`), alive, carries the state's nonce, a registered
 * deployment, a resource link or deep linking request of LTI 1.3.0; the person it names is an enabled account of the
 * platform's academy (a staff member to deep-link). Nobody is created; only the state is spent (and a deep linking
 * request kept for its pick).
 */
export async function verifyLaunch(input: LaunchInput): Promise<LaunchOutcome> {
  const token = text(input.idToken);
  const state = text(input.state);
  if (!token || !state || state.length > 200) return refuse("badRequest");
  if (!input.stateBound) return refuse("stateMismatch");
  const saved = await takeLaunchState(hashSecret(state));
  if (!saved) return refuse("replayed");
  const platform = await findPlatformById(saved.platformId);
  if (!platform) return refuse("unknownIssuer");
  const payload = await verifyToken(token, platform);
  if (typeof payload === "string") return refuse(payload, platform);
  if (!azpFits(payload, platform.clientId)) return refuse("wrongAudience", platform);
  if (payload.nonce !== saved.nonce) return refuse("badNonce", platform);
  const claims = claimRefusal(payload, platform);
  if (claims) return refuse(claims, platform);
  const settings = settingsOf(payload, platform);
  if (typeof settings === "string") return refuse(settings, platform);
  const sourcedId = sourcedIdOf(payload, platform.identityClaim);
  const person = sourcedId ? await findLaunchPerson(sourcedId) : null;
  if (!person) return refuse(sourcedId ? "unknownPerson" : "missingClaims", platform);
  if (person.academyId !== platform.academyId) return refuse("otherAcademy", platform, person.id);
  if (person.disabled) return refuse("userDisabled", platform, person.id);
  // a student may not deep-link: the account's own role decides, not the token's roles
  if (settings && person.role === "student") return refuse("staffOnly", platform, person.id);
  const activityId = settings ? null : activityOf(payload);
  const landing = settings
    ? await deepLinkLanding(person, platform, payload, settings)
    : await landingOf(person, activityId);
  if (!settings) await rememberServices(person, platform, payload, activityId);
  const user = { id: person.id, role: person.role };
  return { ok: true, user, academyId: platform.academyId, landing, frameAncestors: portalOrigins(platform) };
}
