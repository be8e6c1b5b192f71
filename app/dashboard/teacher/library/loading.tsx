export { LibraryLoading as default } from "@/features/activities/ui/library-loading";
