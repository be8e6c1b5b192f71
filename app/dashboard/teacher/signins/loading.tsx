export { SigninLogLoading as default } from "@/features/people/ui/signin-log-page";
