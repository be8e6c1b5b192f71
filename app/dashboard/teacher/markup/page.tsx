import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("markup");

export { MarkupGalleryPage as default } from "@/platform/richtext/ui/markup-gallery";
