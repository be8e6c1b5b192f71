import { ltiJwks } from "@/features/lti/server/routes";

/** The tool's public keys (features/lti/server/keys.ts). */
export const dynamic = "force-dynamic";
export const GET = ltiJwks;
