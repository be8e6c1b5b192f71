import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("codeSignin");

export { CodeSigninPage as default } from "@/platform/auth/ui/code-signin-page";
