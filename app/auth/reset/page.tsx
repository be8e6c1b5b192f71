import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("reset");

export { ResetPage as default } from "@/components/auth/reset-pages";
