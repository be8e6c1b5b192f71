export { NotFoundPage as default } from "@/platform/ui/layout/not-found-page";
