import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("forgot");

export { ForgotPage as default } from "@/platform/auth/ui/reset-pages";
