import { SigninPage } from "@/components/auth/signin-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("signin");

export default SigninPage;
