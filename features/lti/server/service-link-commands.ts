import "server-only";
import { db } from "@/platform/db";
import type { LaunchServices } from "@/features/lti/shared/claims";

/** Remembers (or refreshes) what a launch said about the platform's services for this person, activity and link. */
export async function rememberServiceLink(
  at: { platformId: string; userId: string; activityId: string },
  services: LaunchServices,
): Promise<void> {
  const data = {
    platformId: at.platformId,
    subject: services.subject,
    contextId: services.contextId,
    lineitem: services.lineitem,
    agsScopes: services.agsScopes,
    membershipsUrl: services.membershipsUrl,
  };
  await db().ltiServiceLink.upsert({
    where: {
      userId_activityId_resourceLinkId: {
        userId: at.userId,
        activityId: at.activityId,
        resourceLinkId: services.resourceLinkId,
      },
    },
    create: { ...data, userId: at.userId, activityId: at.activityId, resourceLinkId: services.resourceLinkId },
    update: data,
  });
}
