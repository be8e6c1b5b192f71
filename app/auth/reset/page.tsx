export { ResetPage as default } from "@/components/auth/reset-pages";
