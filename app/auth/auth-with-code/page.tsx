export { CodeSigninPage as default } from "@/components/auth/code-signin-page";
