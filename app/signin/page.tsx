import { SigninPage } from "@/platform/auth/ui/signin-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("signin");

export default SigninPage;
