import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("ltiOpen");

export { LtiOpenWindowPage as default } from "@/features/lti/ui/open-window-page";
