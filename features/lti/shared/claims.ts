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

/** The refusal page. */
export const REFUSED_PATH = "/lti/refused";
