import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("forgot");

export { ForgotPage as default } from "@/components/auth/reset-pages";
