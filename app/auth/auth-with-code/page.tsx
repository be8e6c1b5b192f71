import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("codeSignin");

export { CodeSigninPage as default } from "@/components/auth/code-signin-page";
