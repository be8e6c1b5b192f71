import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("reset");

export { ResetPage as default } from "@/platform/auth/ui/reset-pages";
