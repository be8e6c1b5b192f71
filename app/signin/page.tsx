import { SigninPage } from "@/components/auth/signin-page";

export default SigninPage;
