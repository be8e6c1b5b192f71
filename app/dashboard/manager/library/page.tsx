import { LibraryScreen } from "@/features/activities/ui/library-screen";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("library");

export default function ManagerLibraryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <LibraryScreen role="manager" searchParams={searchParams} />;
}
