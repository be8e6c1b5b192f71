export { ForgotPage as default } from "@/components/auth/reset-pages";
