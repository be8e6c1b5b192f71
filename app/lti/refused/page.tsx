import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("ltiRefused");

export { LtiRefusedPage as default } from "@/features/lti/ui/refused-page";
