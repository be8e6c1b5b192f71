export { LtiDeepLinkLoading as default } from "@/features/lti/ui/deep-link-page";
