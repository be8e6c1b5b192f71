export { LibraryLoading as default } from "@/components/library/library-loading";
