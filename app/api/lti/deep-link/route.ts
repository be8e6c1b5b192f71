import { ltiDeepLinkPick } from "@/features/lti/server/routes";

/** A deep linking pick (features/lti/README.md): the signed response, auto-posted to the portal. */
export const dynamic = "force-dynamic";
export const POST = ltiDeepLinkPick;
