import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("secondFactor");

export { SecondFactorPage as default } from "@/platform/auth/ui/second-factor-page";
