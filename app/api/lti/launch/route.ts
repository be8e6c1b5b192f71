import { ltiLaunch } from "@/features/lti/server/routes";

/** LTI 1.3 launch: the platform's form post of the id_token (features/lti/README.md). */
export const dynamic = "force-dynamic";
export const POST = ltiLaunch;
