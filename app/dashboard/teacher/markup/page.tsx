export { MarkupGalleryPage as default } from "@/components/richtext/markup-gallery";
