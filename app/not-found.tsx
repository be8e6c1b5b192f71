export { NotFoundPage as default } from "@/components/layout/not-found-page";
