import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("markup");

export { MarkupGalleryPage as default } from "@/components/richtext/markup-gallery";
