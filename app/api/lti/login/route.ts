import { ltiLogin } from "@/features/lti/server/routes";

/** LTI 1.3 OIDC login initiation (features/lti/README.md): the platform may send it as a GET or a form POST. */
export const dynamic = "force-dynamic";
export const GET = ltiLogin;
export const POST = ltiLogin;
