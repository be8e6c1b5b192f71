/**
 * LTI 1.3 (1EdTech LTI Core 1.3, Security Framework 1.0, Deep Linking 2.0): the claims a resource link launch and a
 * deep linking request carry, and those of our deep linking response. No zod here.
 */
const LTI = "https://purl.imsglobal.org/spec/lti/claim";
const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";
export const CLAIM = {
  messageType: `${LTI}/message_type`,
  version: `${LTI}/version`,
  deploymentId: `${LTI}/deployment_id`,
  targetLinkUri: `${LTI}/target_link_uri`,
  resourceLink: `${LTI}/resource_link`,
  roles: `${LTI}/roles`,
  custom: `${LTI}/custom`,
  deepLinkingSettings: `${DL}/deep_linking_settings`,
  contentItems: `${DL}/content_items`,
  data: `${DL}/data`,
} as const;

export const RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest";
export const DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest";
export const DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse";
/** The one content item type we return: a resource link to an activity. */
export const RESOURCE_LINK_ITEM = "ltiResourceLink";
export const LTI_VERSION = "1.3.0";

/** Why a launch was refused (the refusal page's message, the sign-in log's reason). */
export const LAUNCH_REFUSALS = [
  "badRequest",
  "stateMismatch",
  "replayed",
  "badSignature",
  "unknownIssuer",
  "wrongAudience",
  "expired",
  "badNonce",
  "unknownDeployment",
  "missingClaims",
  "wrongMessage",
  "unknownPerson",
  "otherAcademy",
  "userDisabled",
  "staffOnly",
  "unsupportedContent",
  "foreignReturnUrl",
  "pickExpired",
  "otherActivity",
] as const;
export type LaunchRefusal = (typeof LAUNCH_REFUSALS)[number];

export function isLaunchRefusal(value: unknown): value is LaunchRefusal {
  return typeof value === "string" && (LAUNCH_REFUSALS as readonly string[]).includes(value);
}

/** Where the platform reaches us (relative to the public URL), for the manager to copy into the portal. */
export const TOOL_PATHS = {
  login: "/api/lti/login",
  launch: "/api/lti/launch",
  jwks: "/api/lti/jwks",
  /** A resource link's target: /lti/activities/<activity id>. */
  activity: "/lti/activities/",
  /** The picker a deep linking request lands on (?request=<secret>), and where its pick is posted. */
  deepLink: "/lti/deep-link",
  deepLinkPick: "/api/lti/deep-link",
} as const;

/** The services' claims of a launch (Assignment and Grade Services 2.0, Names and Role Provisioning 2.0). */
export const SERVICE_CLAIM = {
  context: `${LTI}/context`,
  ags: "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint",
  nrps: "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice",
} as const;
export const SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score";
export const MEMBERS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly";
export const SCORE_TYPE = "application/vnd.ims.lis.v1.score+json";
export const MEMBERS_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";

/** What a resource link launch says about the platform's services for the person it names. */
export interface LaunchServices {
  resourceLinkId: string;
  /** The platform's id of the person (`sub`): the AGS score's userId. */
  subject: string;
  contextId: string | null;
  lineitem: string | null;
  agsScopes: string[];
  membershipsUrl: string | null;
}

const httpUrl = (v: unknown): string | null => {
  if (typeof v !== "string") return null;
  try {
    return ["http:", "https:"].includes(new URL(v).protocol) ? v : null;
  } catch {
    return null;
  }
};

/** The launch's services (a line item with the score scope, a context's membership URL); null: none it can use. */
export function servicesOf(payload: Record<string, unknown>): LaunchServices | null {
  const ags = payload[SERVICE_CLAIM.ags] as { lineitem?: unknown; scope?: unknown } | undefined;
  const nrps = payload[SERVICE_CLAIM.nrps] as { context_memberships_url?: unknown } | undefined;
  const context = payload[SERVICE_CLAIM.context] as { id?: unknown } | undefined;
  const link = payload[CLAIM.resourceLink] as { id?: unknown } | undefined;
  const agsScopes = Array.isArray(ags?.scope) ? ags.scope.filter((s): s is string => typeof s === "string") : [];
  const lineitem = agsScopes.includes(SCORE_SCOPE) ? httpUrl(ags?.lineitem) : null;
  const membershipsUrl = httpUrl(nrps?.context_memberships_url);
  if ((!lineitem && !membershipsUrl) || typeof link?.id !== "string" || typeof payload.sub !== "string") return null;
  return {
    resourceLinkId: link.id,
    subject: payload.sub,
    contextId: typeof context?.id === "string" ? context.id : null,
    lineitem,
    agsScopes,
    membershipsUrl,
  };
}
