import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@/platform/db/generated/prisma/client";
import { createActivityFromTemplate } from "../../prisma/seed/factories";
import type { LtiPlatformEmulator } from "./lti-platform";

/**
 * The LTI tests' one set-up (features/lti/README.md, the launch's tests), for the integration tests (`db()`) and the browser ones
 * (`e2eDb()`) alike: the emulator registered for an academy, a person with a OneRoster sourcedId, a launch's hint,
 * and an activity of one scene.
 */

export const LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner";
export const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

/** The emulator's registration as `set-lti-platform` takes it: its issuer, our client id there, deployment, URLs. */
export function registrationOf(platform: LtiPlatformEmulator) {
  return {
    ...{ issuer: platform.issuer, clientId: platform.clientId, deploymentIds: [platform.deploymentId] },
    ...{ authLoginUrl: platform.authUrl, tokenUrl: platform.tokenUrl, jwksUrl: platform.jwksUrl },
  };
}

/** The academy's platform, as `set-lti-platform` stores it. */
export async function registerPlatform(client: PrismaClient, platform: LtiPlatformEmulator, academyId: string) {
  await client.ltiPlatform.create({ data: { academyId, ...registrationOf(platform) } });
}

/** Gives the user a OneRoster sourcedId (as an import does): what the portal's `sub` names. */
export async function giveSourcedId(client: PrismaClient, userId: string, sourcedId: string = randomUUID()) {
  await client.user.update({ where: { id: userId }, data: { sourcedId } });
  return sourcedId;
}

/** A resource link launch of `activityId` (on `toolUrl`) for `sub`, registered at the portal: its hint. */
export function ltiLaunchHint(
  platform: LtiPlatformEmulator,
  toolUrl: string,
  launch: { sub: string; activityId: string; roles?: string[]; claims?: Record<string, unknown> },
) {
  return platform.prepare({
    sub: launch.sub,
    deploymentId: platform.deploymentId,
    targetLinkUri: `${toolUrl}/lti/activities/${launch.activityId}`,
    ...(launch.roles && { roles: launch.roles }),
    ...(launch.claims && { claims: launch.claims }),
  });
}

/** A self-paced "science-dissolve" of `schoolId` cut to its single-choice scene: answering it finishes the activity. */
export async function oneSceneActivity(client: PrismaClient, schoolId: string) {
  const activity = (
    await createActivityFromTemplate(client, { templateId: "science-dissolve", schoolId, mode: "self" })
  ).id;
  const scenes = await client.activityScene.findMany({ where: { activityId: activity }, orderBy: { position: "asc" } });
  const choice = scenes.find((s) => s.type === "single_choice")!;
  await client.activityScene.deleteMany({ where: { activityId: activity, id: { not: choice.id } } });
  return { activity, choice };
}

/** Waits until `what` gives a value (polled every 250 ms), at most `ms`. */
export async function until<T>(what: () => Promise<T | null | undefined | false>, ms = 45_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (value) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 250));
  }
}
