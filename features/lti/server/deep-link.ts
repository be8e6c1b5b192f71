import "server-only";
import { randomBytes } from "node:crypto";
import type { JWTPayload } from "jose";
import { z } from "zod";
import { publicUrl } from "@/platform/env";
import { toPlainText } from "@/platform/richtext/plain";
import {
  CLAIM,
  DEEP_LINKING_RESPONSE,
  type LaunchRefusal,
  LTI_VERSION,
  RESOURCE_LINK_ITEM,
  TOOL_PATHS,
} from "@/features/lti/shared/claims";
import { saveDeepLinkRequest, takeDeepLinkRequest } from "./deep-link-commands";
import { deepLinkRequestWaiting, type Picker, pickableActivity } from "./deep-link-queries";
import { signWithToolKey } from "./keys";
import { findPlatformById } from "./launch-queries";
import { hashSecret } from "./login";

/**
 * Deep Linking 2.0 (1EdTech LTI Deep Linking 2.0): a deep linking request, verified as a launch
 * (features/lti/server/launch.ts), leaves a pick waiting DEEP_LINK_MINUTES for its staff member, server-side, named
 * by a secret in the picker's address; the pick (one activity of their school, or a manager's academy) is taken once
 * and answered with an `LtiDeepLinkingResponse` signed with the tool's current key, which the browser form-posts to
 * the platform's `deep_link_return_url`.
 */
export const DEEP_LINK_MINUTES = 15;
/** How long the signed response is valid (the browser posts it at once). */
const RESPONSE_SECONDS = 300;

export interface DeepLinkSettings {
  returnUrl: string;
  /** The platform's opaque `data`, echoed in the response. */
  data: string | null;
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 2000) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The `deep_linking_settings` claim: a return URL on one of the registered platform's origins (`platformOrigins`: the
 * signed response goes there), `ltiResourceLink` among the accepted types; `data` kept.
 */
export function deepLinkSettingsOf(payload: JWTPayload, platformOrigins: string[]): DeepLinkSettings | LaunchRefusal {
  const settings = payload[CLAIM.deepLinkingSettings];
  if (!settings || typeof settings !== "object") return "missingClaims";
  const { deep_link_return_url: returnUrl, accept_types: types, data } = settings as Record<string, unknown>;
  const url = httpUrl(returnUrl);
  if (!url || !Array.isArray(types)) return "missingClaims";
  if (!platformOrigins.includes(new URL(url).origin)) return "foreignReturnUrl";
  if (!types.includes(RESOURCE_LINK_ITEM)) return "unsupportedContent";
  return { returnUrl: url, data: typeof data === "string" && data.length <= 4000 ? data : null };
}

/** Keeps the request for `userId`; the picker's address, with the secret that names it. */
export async function startDeepLink(
  request: DeepLinkSettings & { userId: string; platformId: string; deploymentId: string },
): Promise<string> {
  const secret = randomBytes(32).toString("base64url");
  await saveDeepLinkRequest({
    tokenHash: hashSecret(secret),
    userId: request.userId,
    platformId: request.platformId,
    deploymentId: request.deploymentId,
    returnUrl: request.returnUrl,
    data: request.data,
    expiresAt: new Date(Date.now() + DEEP_LINK_MINUTES * 60_000),
  });
  return `${TOOL_PATHS.deepLink}?request=${secret}`;
}

/** The secret naming a waiting request (32 random bytes, base64url). */
const requestSecret = z.string().regex(/^[\w-]{43}$/);
/** The picker's form (ui/deep-link-picker.tsx): the request's secret and the activity picked; null: not one. */
const pickForm = z.object({
  request: requestSecret.nullable().catch(null),
  activity: z
    .guid()
    .transform((id) => id.toLowerCase())
    .nullable()
    .catch(null),
});
const secretOf = (value: unknown) => requestSecret.safeParse(value).data ?? null;

/** Whether the picker page's `request` is one waiting for `userId`. */
export async function deepLinkWaiting(request: unknown, userId: string): Promise<boolean> {
  const secret = secretOf(request);
  return secret !== null && (await deepLinkRequestWaiting(hashSecret(secret), userId));
}

export type PickOutcome =
  { ok: true; returnUrl: string; jwt: string; activityId: string } | { ok: false; code: LaunchRefusal };

/** The content item of an activity: a resource link to it, its title as plain text, its id as a custom parameter. */
function contentItemOf(activity: { id: string; title: string }) {
  return {
    type: RESOURCE_LINK_ITEM,
    url: `${publicUrl()}${TOOL_PATHS.activity}${activity.id}`,
    title: toPlainText(activity.title, "ja"),
    custom: { activity_id: activity.id },
  };
}

/**
 * A staff member's pick: the request must be theirs and waiting (taken once here), the activity an active one they
 * may link (a refused activity leaves the request waiting). The response: `iss` our client id, `aud` the platform.
 */
export async function pickActivity(input: { form: unknown; picker: Picker & { id: string } }): Promise<PickOutcome> {
  const form = pickForm.safeParse(input.form).data ?? { request: null, activity: null };
  const secret = form.request;
  if (!secret || !(await deepLinkRequestWaiting(hashSecret(secret), input.picker.id)))
    return { ok: false, code: "pickExpired" };
  const activity = form.activity ? await pickableActivity(input.picker, form.activity) : null;
  if (!activity) return { ok: false, code: "otherActivity" };
  const request = await takeDeepLinkRequest(hashSecret(secret), input.picker.id);
  const platform = request ? await findPlatformById(request.platformId) : null;
  if (!request || !platform) return { ok: false, code: "pickExpired" };
  const jwt = await signWithToolKey(
    {
      iss: platform.clientId,
      aud: platform.issuer,
      nonce: randomBytes(16).toString("base64url"),
      [CLAIM.messageType]: DEEP_LINKING_RESPONSE,
      [CLAIM.version]: LTI_VERSION,
      [CLAIM.deploymentId]: request.deploymentId,
      [CLAIM.contentItems]: [contentItemOf(activity)],
      ...(request.data === null ? {} : { [CLAIM.data]: request.data }),
    },
    RESPONSE_SECONDS,
  );
  return { ok: true, returnUrl: request.returnUrl, jwt, activityId: activity.id };
}
