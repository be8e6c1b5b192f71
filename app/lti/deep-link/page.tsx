import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("ltiDeepLink");

export { LtiDeepLinkPage as default } from "@/features/lti/ui/deep-link-page";
